// The region edit modal's drawing surface, apart from React: the press-drag-release gesture that draws a
// rectangle (or picks the region under the pointer), and the painting of the image, the regions (coloured by
// their state, with any dropped image) and the rectangle being dragged. Written against the few canvas calls it
// makes (RegionContext), so a test can run it on a plain pixel buffer.
import { containRect } from '../rules.ts';
import { normaliseRegion, type Point, REGION_COLOURS, type RegionRect, regionAt, regionLook } from './rules.ts';

/** The 2D-context calls the painting makes (a CanvasRenderingContext2D has them all). */
export interface RegionContext<Img> {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalAlpha: number;
  clearRect(x: number, y: number, width: number, height: number): void;
  fillRect(x: number, y: number, width: number, height: number): void;
  strokeRect(x: number, y: number, width: number, height: number): void;
  setLineDash(segments: number[]): void;
  drawImage(image: Img, dx: number, dy: number, dw: number, dh: number): void;
}

export interface SelectableRegion extends RegionRect {
  id: string;
  hasImage: boolean;
}

/** What a press on the surface did: picked a drawn region, or started a new rectangle. */
export type Press = { kind: 'select'; id: string } | { kind: 'draw' };

export class RegionSelector<Img = CanvasImageSource> {
  private drag: { start: Point; current: Point } | null = null;
  /** The images dropped on regions (with their pixel size), drawn over them in their own aspect. */
  private readonly dropped = new Map<string, { image: Img; size: { width: number; height: number } }>();

  /** A pointer position (client coordinates) in surface pixels, or null while the surface is not laid out. */
  pointAt(
    client: { clientX: number; clientY: number },
    surface: { width: number; height: number },
    box: { left: number; top: number; width: number; height: number },
  ): Point | null {
    if (box.width === 0 || box.height === 0) return null;
    return {
      x: ((client.clientX - box.left) * surface.width) / box.width,
      y: ((client.clientY - box.top) * surface.height) / box.height,
    };
  }

  /** A press picks the topmost region under it; on empty space, or with Shift held, a new rectangle starts. */
  press(point: Point, regions: readonly SelectableRegion[], shiftKey: boolean): Press {
    const hit = regionAt(regions, point);
    if (hit && !shiftKey) return { kind: 'select', id: hit.id };
    this.drag = { start: point, current: point };
    return { kind: 'draw' };
  }

  /** The pointer moved; true when a rectangle is being dragged (and needs painting again). */
  move(point: Point): boolean {
    if (!this.drag) return false;
    this.drag = { ...this.drag, current: point };
    return true;
  }

  get dragging(): boolean {
    return this.drag !== null;
  }

  /** The release: the dragged rectangle clamped to the surface, or null (no drag, or under the 20x20 minimum). */
  release(point: Point | null, bounds: { width: number; height: number }): RegionRect | null {
    const drag = this.drag;
    if (!drag) return null;
    this.drag = null;
    return normaliseRegion(drag.start, point ?? drag.current, bounds);
  }

  cancel(): void {
    this.drag = null;
  }

  /** The region under a point (a drop target), if any. */
  regionAt<T extends RegionRect>(regions: readonly T[], point: Point | null): T | null {
    return point ? regionAt(regions, point) : null;
  }

  setDroppedImage(regionId: string, image: Img, size: { width: number; height: number }): void {
    this.dropped.set(regionId, { image, size });
  }

  forget(regionId: string): void {
    this.dropped.delete(regionId);
  }

  forgetAll(): void {
    this.dropped.clear();
  }

  /** Paints the image scaled to the surface, the regions over it (a dropped image contained in its region), and the
   * rectangle being dragged. */
  draw(
    g: RegionContext<Img>,
    scene: {
      image: Img;
      width: number;
      height: number;
      regions: readonly SelectableRegion[];
      activeId: string | null;
      dropId: string | null;
    },
  ): void {
    const { width, height } = scene;
    g.clearRect(0, 0, width, height);
    g.drawImage(scene.image, 0, 0, width, height);
    for (const region of scene.regions) {
      const look = regionLook(region, scene.activeId, scene.dropId);
      const colour = REGION_COLOURS[look];
      const dropped = this.dropped.get(region.id);
      if (dropped) {
        // As large as fits in the region, centred, never stretched to its shape (object-fit: contain).
        const fit = containRect(region, dropped.size);
        g.globalAlpha = 0.55;
        g.drawImage(dropped.image, fit.x, fit.y, fit.width, fit.height);
        g.globalAlpha = 1;
      }
      g.fillStyle = `${colour}33`;
      g.fillRect(region.x, region.y, region.width, region.height);
      g.strokeStyle = colour;
      g.lineWidth = look === 'active' || look === 'dropTarget' ? 3 : 2;
      g.setLineDash(look === 'dropTarget' ? [8, 4] : []);
      g.strokeRect(region.x, region.y, region.width, region.height);
    }
    const drag = this.drag;
    if (drag) {
      g.setLineDash([6, 4]);
      g.strokeStyle = '#ffffff';
      g.lineWidth = 2;
      g.strokeRect(
        Math.min(drag.start.x, drag.current.x),
        Math.min(drag.start.y, drag.current.y),
        Math.abs(drag.current.x - drag.start.x),
        Math.abs(drag.current.y - drag.start.y),
      );
    }
    g.setLineDash([]);
  }
}
