// The Magic Selector's mask, painted apart from React: white brush strokes on a black canvas the size of the
// base image. It is written against the few canvas calls it makes (MaskSurface), so a test can paint on a plain
// pixel buffer and read back what was painted.

/** The 2D-context calls the painter makes (a CanvasRenderingContext2D has them all). */
export interface MaskContext<Img> {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineCap: CanvasLineCap;
  lineJoin: CanvasLineJoin;
  lineWidth: number;
  fillRect(x: number, y: number, width: number, height: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  drawImage(image: Img, dx: number, dy: number, dw: number, dh: number): void;
}

/** What the painter paints on (an HTMLCanvasElement is one). */
export interface MaskSurface<Img> {
  width: number;
  height: number;
  getContext(kind: '2d'): MaskContext<Img> | null;
  toDataURL(type: string): string;
}

/** A point on the mask, in mask pixels, and how many mask pixels one screen pixel covers there. */
export interface MaskPoint {
  x: number;
  y: number;
  scale: number;
}

const MASKED = '#ffffff';
const UNMASKED = '#000000';

export class MaskPainter<Img = CanvasImageSource> {
  private last: { x: number; y: number } | null = null;

  constructor(
    private readonly surface: MaskSurface<Img>,
    /** The brush's width on screen (the spec's 20 px), whatever the image's own size. */
    private readonly brushWidth: number,
  ) {}

  /** A pointer position (client coordinates) on the mask shown in `box` (its on-screen rectangle). */
  pointAt(client: { clientX: number; clientY: number }, box: { left: number; top: number; width: number }): MaskPoint {
    const scale = box.width > 0 ? this.surface.width / box.width : 1;
    return { x: (client.clientX - box.left) * scale, y: (client.clientY - box.top) * scale, scale };
  }

  /** All black: nothing masked. */
  clear(): void {
    const g = this.surface.getContext('2d');
    if (!g) return;
    g.fillStyle = UNMASKED;
    g.fillRect(0, 0, this.surface.width, this.surface.height);
  }

  /** The pointer went down: a dot where it is, and the start of a stroke. */
  begin(point: MaskPoint): void {
    this.last = { x: point.x, y: point.y };
    this.extend(point);
  }

  /** The pointer moved: the stroke goes on to `point` (nothing when no stroke is under way). */
  extend(point: MaskPoint): void {
    const g = this.surface.getContext('2d');
    const from = this.last;
    if (!g || !from) return;
    g.strokeStyle = MASKED;
    g.lineCap = 'round';
    g.lineJoin = 'round';
    g.lineWidth = this.brushWidth * point.scale;
    g.beginPath();
    g.moveTo(from.x, from.y);
    g.lineTo(point.x, point.y);
    g.stroke();
    this.last = { x: point.x, y: point.y };
  }

  /** The pointer went up or left: the stroke ends. */
  end(): void {
    this.last = null;
  }

  /** Replaces the mask with a saved one, stretched to the mask's size. */
  paint(mask: Img): void {
    const g = this.surface.getContext('2d');
    if (!g) return;
    this.clear();
    g.drawImage(mask, 0, 0, this.surface.width, this.surface.height);
  }

  /** The mask as a PNG data URL, as the inpaint call and saved sessions take it. */
  toDataUrl(): string {
    return this.surface.toDataURL('image/png');
  }
}
