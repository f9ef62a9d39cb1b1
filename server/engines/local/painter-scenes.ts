// The painter's scene elements as SVG fragments: ridges, subjects, weather, sky, skyline, trees, dunes, sea and more.
import { adjust, hex, mix } from './colour.ts';
import type { PaintPlan, Palette } from './painter-palette.ts';
import { hasPhrase, type Rgb } from './prompt-words.ts';
import type { Rng } from './random.ts';

/** A ridge line across the width by midpoint displacement, as an SVG path closed to the bottom. */
export function ridgePath(rng: Rng, w: number, h: number, baseY: number, roughness: number, smooth: boolean): string {
  const n = 64;
  const ys: number[] = new Array(n + 1).fill(baseY);
  let amp = roughness;
  for (let step = n; step > 1; step = Math.floor(step / 2)) {
    for (let i = step / 2; i < n; i += step) {
      const a = ys[i - step / 2];
      const b = ys[Math.min(n, i + step / 2)];
      ys[i] = (a + b) / 2 + rng.range(-amp, amp);
    }
    amp *= smooth ? 0.45 : 0.6;
  }
  ys[0] = baseY + rng.range(-roughness, roughness) * 0.5;
  ys[n] = baseY + rng.range(-roughness, roughness) * 0.5;
  const pts = ys.map((y, i) => `${((i / n) * w).toFixed(1)},${y.toFixed(1)}`);
  return `M0,${h} L${pts.join(' L')} L${w},${h} Z`;
}

/** A mountain range: a few peaks joined by jagged slopes, closed to the bottom; snow caps optional. */
export function mountainRange(
  rng: Rng,
  w: number,
  h: number,
  baseY: number,
  height: number,
  count: number,
  fill: string,
  snow: boolean,
): string {
  const xs = Array.from({ length: count }, (_, i) => ((i + rng.range(0.2, 0.8)) / count) * w);
  const peaks = xs.map((x) => ({ x, y: baseY - height * rng.range(0.55, 1) }));
  const points: Array<[number, number]> = [[0, baseY - height * rng.range(0.1, 0.4)]];
  for (let i = 0; i < peaks.length; i++) {
    points.push([peaks[i].x, peaks[i].y]);
    const next = peaks[i + 1];
    if (next)
      points.push([(peaks[i].x + next.x) / 2 + rng.range(-0.02, 0.02) * w, baseY - height * rng.range(0.15, 0.45)]);
  }
  points.push([w, baseY - height * rng.range(0.1, 0.4)]);
  // jagged slopes: subdivide each segment with small random offsets
  const jagged: Array<[number, number]> = [];
  for (let i = 0; i < points.length - 1; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[i + 1];
    const steps = 6;
    for (let k = 0; k < steps; k++) {
      const t = k / steps;
      const off = k === 0 ? 0 : rng.range(-0.025, 0.025) * height;
      jagged.push([x0 + (x1 - x0) * t, y0 + (y1 - y0) * t + off]);
    }
  }
  jagged.push(points[points.length - 1]);
  let out = `<path d="M0,${h} L${jagged.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' L')} L${w},${h} Z" fill="${fill}"/>`;
  if (snow) {
    for (let i = 1; i < points.length - 1; i += 2) {
      const [px, py] = points[i];
      const [lx, ly] = points[i - 1];
      const [rx, ry] = points[i + 1];
      const t = 0.28;
      const a = [px + (lx - px) * t, py + (ly - py) * t];
      const b = [px + (rx - px) * t, py + (ry - py) * t];
      const mid = [(a[0] + b[0]) / 2, Math.max(a[1], b[1]) - (Math.abs(a[1] - b[1]) * 0.3 + height * 0.03)];
      out += `<path d="M${px.toFixed(1)},${py.toFixed(1)} L${b[0].toFixed(1)},${b[1].toFixed(1)} L${((b[0] + mid[0]) / 2).toFixed(1)},${(mid[1] + height * 0.04).toFixed(1)} L${mid[0].toFixed(1)},${mid[1].toFixed(1)} L${((a[0] + mid[0]) / 2).toFixed(1)},${(mid[1] + height * 0.05).toFixed(1)} L${a[0].toFixed(1)},${a[1].toFixed(1)} Z" fill="#f4f7fb" opacity="0.92"/>`;
    }
  }
  return out;
}

/** Simple silhouettes for common subjects, placed on the ground line. */
const SUBJECTS: Record<string, readonly string[]> = {
  lighthouse: ['lighthouse'],
  boat: ['boat', 'ship', 'sailboat', 'yacht', 'sail'],
  house: ['house', 'cabin', 'cottage', 'village', 'home', 'farm', 'barn'],
  castle: ['castle', 'fortress', 'palace', 'tower'],
  tree: ['tree', 'oak', 'willow'],
  figure: [
    'person',
    'man',
    'woman',
    'hiker',
    'traveler',
    'traveller',
    'silhouette',
    'figure',
    'girl',
    'boy',
    'astronaut',
    'explorer',
  ],
  birds: ['bird', 'birds', 'eagle', 'seagull', 'seagulls', 'flock'],
  flowers: ['flower', 'flowers', 'blossom', 'blossoms', 'tulips', 'roses', 'meadow', 'garden'],
  car: ['car', 'road', 'highway', 'road trip'],
};

export function subjectsIn(prompt: string): string[] {
  return Object.entries(SUBJECTS)
    .filter(([, words]) => words.some((word) => hasPhrase(prompt, word)))
    .map(([key]) => key);
}

export function drawSubject(
  kind: string,
  rng: Rng,
  p: Palette,
  w: number,
  h: number,
  groundY: number,
  water: boolean,
): string {
  const s = Math.min(w, h);
  const dark = hex(adjust(p.near, 0, 0.7, 0.45));
  const x = w * rng.range(0.2, 0.8);
  switch (kind) {
    case 'lighthouse': {
      const lw = s * 0.06;
      const lh = s * 0.32;
      const lx = w * rng.range(0.65, 0.85);
      const by = groundY + s * 0.02;
      let out = `<path d="M${(lx - lw * 1.6).toFixed(1)},${(by + s * 0.04).toFixed(1)} Q${lx.toFixed(1)},${(by - s * 0.06).toFixed(1)} ${(lx + lw * 1.8).toFixed(1)},${(by + s * 0.04).toFixed(1)} Z" fill="${dark}"/>`;
      out += `<path d="M${(lx - lw / 2).toFixed(1)},${by.toFixed(1)} L${(lx - lw / 3).toFixed(1)},${(by - lh).toFixed(1)} L${(lx + lw / 3).toFixed(1)},${(by - lh).toFixed(1)} L${(lx + lw / 2).toFixed(1)},${by.toFixed(1)} Z" fill="#f1f1ee"/>`;
      for (let k = 1; k <= 3; k++)
        out += `<rect x="${(lx - lw / 2).toFixed(1)}" y="${(by - (lh * k) / 4).toFixed(1)}" width="${lw.toFixed(1)}" height="${(lh / 10).toFixed(1)}" fill="#c0392b"/>`;
      out += `<rect x="${(lx - lw / 2.4).toFixed(1)}" y="${(by - lh - lw * 0.7).toFixed(1)}" width="${(lw / 1.2).toFixed(1)}" height="${(lw * 0.7).toFixed(1)}" fill="${hex(p.light)}"/>`;
      out += `<path d="M${lx.toFixed(1)},${(by - lh - lw * 0.35).toFixed(1)} L${(lx - s * 0.5).toFixed(1)},${(by - lh - s * 0.08).toFixed(1)} L${(lx - s * 0.5).toFixed(1)},${(by - lh + s * 0.06).toFixed(1)} Z" fill="${hex(p.light)}" opacity="0.18"/>`;
      return out;
    }
    case 'boat': {
      const bw = s * 0.12;
      const by = water ? groundY + (h - groundY) * 0.25 : groundY;
      return `<path d="M${(x - bw / 2).toFixed(1)},${by.toFixed(1)} L${(x + bw / 2).toFixed(1)},${by.toFixed(1)} L${(x + bw * 0.35).toFixed(1)},${(by + bw * 0.18).toFixed(1)} L${(x - bw * 0.35).toFixed(1)},${(by + bw * 0.18).toFixed(1)} Z" fill="${dark}"/><path d="M${x.toFixed(1)},${(by - bw * 0.05).toFixed(1)} L${x.toFixed(1)},${(by - bw * 0.9).toFixed(1)} L${(x + bw * 0.4).toFixed(1)},${(by - bw * 0.1).toFixed(1)} Z" fill="#f5f2ea"/>`;
    }
    case 'house': {
      let out = '';
      const count = rng.int(1, 4);
      for (let k = 0; k < count; k++) {
        const hw = s * rng.range(0.06, 0.1);
        const hx = w * rng.range(0.1, 0.9);
        const hy = groundY + s * rng.range(0, 0.04);
        const wall = hex(adjust(p.accent, rng.range(-20, 20), 0.5, 0.9));
        out += `<rect x="${(hx - hw / 2).toFixed(1)}" y="${(hy - hw * 0.7).toFixed(1)}" width="${hw.toFixed(1)}" height="${(hw * 0.7).toFixed(1)}" fill="${wall}"/>`;
        out += `<path d="M${(hx - hw * 0.62).toFixed(1)},${(hy - hw * 0.68).toFixed(1)} L${hx.toFixed(1)},${(hy - hw * 1.15).toFixed(1)} L${(hx + hw * 0.62).toFixed(1)},${(hy - hw * 0.68).toFixed(1)} Z" fill="${dark}"/>`;
        out += `<rect x="${(hx - hw * 0.12).toFixed(1)}" y="${(hy - hw * 0.45).toFixed(1)}" width="${(hw * 0.24).toFixed(1)}" height="${(hw * 0.2).toFixed(1)}" fill="${hex(p.light)}" opacity="0.85"/>`;
      }
      return out;
    }
    case 'castle': {
      const cw = s * 0.28;
      const ch = s * 0.2;
      const cx = w * rng.range(0.35, 0.65);
      let out = `<rect x="${(cx - cw / 2).toFixed(1)}" y="${(groundY - ch).toFixed(1)}" width="${cw.toFixed(1)}" height="${ch.toFixed(1)}" fill="${dark}"/>`;
      for (const t of [-0.5, 0.5, 0]) {
        const tw = cw * 0.16;
        const th = ch * (t === 0 ? 1.9 : 1.5);
        out += `<rect x="${(cx + t * cw - tw / 2).toFixed(1)}" y="${(groundY - th).toFixed(1)}" width="${tw.toFixed(1)}" height="${th.toFixed(1)}" fill="${dark}"/>`;
        out += `<path d="M${(cx + t * cw - tw * 0.7).toFixed(1)},${(groundY - th).toFixed(1)} L${(cx + t * cw).toFixed(1)},${(groundY - th - tw * 1.4).toFixed(1)} L${(cx + t * cw + tw * 0.7).toFixed(1)},${(groundY - th).toFixed(1)} Z" fill="${dark}"/>`;
      }
      return out;
    }
    case 'tree': {
      const th = s * 0.35;
      const tx = w * rng.range(0.15, 0.35);
      let out = `<path d="M${(tx - th * 0.03).toFixed(1)},${(groundY + s * 0.02).toFixed(1)} L${(tx - th * 0.015).toFixed(1)},${(groundY - th * 0.6).toFixed(1)} L${(tx + th * 0.015).toFixed(1)},${(groundY - th * 0.6).toFixed(1)} L${(tx + th * 0.03).toFixed(1)},${(groundY + s * 0.02).toFixed(1)} Z" fill="${dark}"/>`;
      for (let k = 0; k < 9; k++) {
        out += `<circle cx="${(tx + rng.range(-0.25, 0.25) * th).toFixed(1)}" cy="${(groundY - th * rng.range(0.55, 0.95)).toFixed(1)}" r="${(th * rng.range(0.14, 0.22)).toFixed(1)}" fill="${hex(adjust(p.mid, rng.range(-10, 10), 1.1, rng.range(0.6, 0.9)))}"/>`;
      }
      return out;
    }
    case 'figure': {
      const fh = s * 0.16;
      const fx = w * rng.range(0.3, 0.7);
      const fy = groundY + s * 0.03;
      return `<circle cx="${fx.toFixed(1)}" cy="${(fy - fh * 0.9).toFixed(1)}" r="${(fh * 0.09).toFixed(1)}" fill="${dark}"/><path d="M${(fx - fh * 0.12).toFixed(1)},${(fy - fh * 0.78).toFixed(1)} L${(fx + fh * 0.12).toFixed(1)},${(fy - fh * 0.78).toFixed(1)} L${(fx + fh * 0.09).toFixed(1)},${(fy - fh * 0.35).toFixed(1)} L${(fx + fh * 0.07).toFixed(1)},${fy.toFixed(1)} L${(fx + fh * 0.01).toFixed(1)},${fy.toFixed(1)} L${fx.toFixed(1)},${(fy - fh * 0.3).toFixed(1)} L${(fx - fh * 0.01).toFixed(1)},${fy.toFixed(1)} L${(fx - fh * 0.07).toFixed(1)},${fy.toFixed(1)} L${(fx - fh * 0.09).toFixed(1)},${(fy - fh * 0.35).toFixed(1)} Z" fill="${dark}"/>`;
    }
    case 'birds': {
      let out = '';
      for (let k = 0; k < 7; k++) {
        const bx = w * rng.range(0.2, 0.8);
        const by = groundY * rng.range(0.15, 0.55);
        const bs = s * rng.range(0.012, 0.025);
        out += `<path d="M${(bx - bs).toFixed(1)},${by.toFixed(1)} Q${(bx - bs / 2).toFixed(1)},${(by - bs * 0.6).toFixed(1)} ${bx.toFixed(1)},${by.toFixed(1)} Q${(bx + bs / 2).toFixed(1)},${(by - bs * 0.6).toFixed(1)} ${(bx + bs).toFixed(1)},${by.toFixed(1)}" stroke="${dark}" stroke-width="${Math.max(1, bs * 0.18).toFixed(1)}" fill="none"/>`;
      }
      return out;
    }
    case 'flowers': {
      let out = '';
      const colours = [p.accent, p.accent2, adjust(p.accent, 40, 1.2, 1.1)];
      for (let k = 0; k < 90; k++) {
        const t = rng.next();
        const fy = groundY + (h - groundY) * (0.1 + 0.9 * t);
        const r = s * (0.004 + 0.014 * t);
        out += `<circle cx="${(rng.next() * w).toFixed(1)}" cy="${fy.toFixed(1)}" r="${r.toFixed(1)}" fill="${hex(rng.pick(colours))}" opacity="0.9"/>`;
      }
      return out;
    }
    case 'car': {
      let out = `<path d="M${(w * 0.42).toFixed(1)},${groundY.toFixed(1)} L${(w * 0.58).toFixed(1)},${groundY.toFixed(1)} L${(w * 0.85).toFixed(1)},${h} L${(w * 0.15).toFixed(1)},${h} Z" fill="${hex(adjust(p.ground, 0, 0.3, 0.6))}"/>`;
      for (let k = 0; k < 6; k++) {
        const t0 = (k / 6) ** 1.5;
        const t1 = ((k + 0.5) / 6) ** 1.5;
        const y0 = groundY + (h - groundY) * t0;
        const y1 = groundY + (h - groundY) * t1;
        out += `<path d="M${(w / 2 - (0.004 + 0.02 * t0) * w).toFixed(1)},${y0.toFixed(1)} L${(w / 2 + (0.004 + 0.02 * t0) * w).toFixed(1)},${y0.toFixed(1)} L${(w / 2 + (0.004 + 0.02 * t1) * w).toFixed(1)},${y1.toFixed(1)} L${(w / 2 - (0.004 + 0.02 * t1) * w).toFixed(1)},${y1.toFixed(1)} Z" fill="#f2e6b8" opacity="0.8"/>`;
      }
      return out;
    }
    default:
      return '';
  }
}

/** Weather overlays: rain streaks, snowflakes, fog bands, storm darkening. */
export function weather(prompt: string, rng: Rng, w: number, h: number): { svg: string; kinds: string[] } {
  const kinds: string[] = [];
  let svg = '';
  const s = Math.min(w, h);
  if (['storm', 'stormy', 'thunder', 'rain', 'rainy', 'raining'].some((word) => hasPhrase(prompt, word))) {
    kinds.push('rain');
    svg += `<rect width="${w}" height="${h}" fill="#1b2230" opacity="0.25"/>`;
    for (let k = 0; k < 160; k++) {
      const x = rng.next() * w;
      const y = rng.next() * h;
      const len = s * rng.range(0.02, 0.05);
      svg += `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x - len * 0.25).toFixed(1)}" y2="${(y + len).toFixed(1)}" stroke="#dfe8f5" stroke-width="${Math.max(0.6, s / 900).toFixed(2)}" opacity="0.35"/>`;
    }
  }
  if (
    ['snowfall', 'snowing', 'blizzard', 'falling snow', 'snowflakes', 'snow storm', 'snowstorm'].some((word) =>
      hasPhrase(prompt, word),
    )
  ) {
    kinds.push('snow');
    for (let k = 0; k < 140; k++) {
      svg += `<circle cx="${(rng.next() * w).toFixed(1)}" cy="${(rng.next() * h).toFixed(1)}" r="${(s * rng.range(0.002, 0.006)).toFixed(1)}" fill="#ffffff" opacity="${rng.range(0.5, 0.9).toFixed(2)}"/>`;
    }
  }
  if (['fog', 'foggy', 'mist', 'misty', 'haze', 'hazy'].some((word) => hasPhrase(prompt, word))) {
    kinds.push('fog');
    for (let k = 0; k < 4; k++) {
      const y = h * rng.range(0.45, 0.85);
      svg += `<rect x="0" y="${(y - h * 0.06).toFixed(1)}" width="${w}" height="${(h * 0.12).toFixed(1)}" fill="#e9eef2" opacity="0.14"/>`;
    }
    svg += `<rect width="${w}" height="${h}" fill="#dfe6ea" opacity="0.12"/>`;
  }
  return { svg, kinds };
}

export function gradientDefs(p: Palette, plan: PaintPlan, w: number, h: number): string {
  const lx = plan.light.x * w;
  const ly = plan.light.y * h;
  return `<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="${hex(p.skyTop)}"/><stop offset="${(plan.horizon * 0.6).toFixed(3)}" stop-color="${hex(p.skyMid)}"/><stop offset="${plan.horizon.toFixed(3)}" stop-color="${hex(p.skyHorizon)}"/><stop offset="1" stop-color="${hex(p.skyHorizon)}"/>
</linearGradient>
<radialGradient id="glow" cx="${lx.toFixed(1)}" cy="${ly.toFixed(1)}" r="${(plan.light.radius * 6 * Math.max(w, h)).toFixed(1)}" gradientUnits="userSpaceOnUse">
<stop offset="0" stop-color="${hex(p.light)}" stop-opacity="0.75"/><stop offset="0.25" stop-color="${hex(p.light)}" stop-opacity="0.25"/><stop offset="1" stop-color="${hex(p.light)}" stop-opacity="0"/>
</radialGradient>
<radialGradient id="disc" cx="0.4" cy="0.4" r="0.7">
<stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="${hex(p.light)}"/><stop offset="1" stop-color="${hex(mix(p.light, p.accent, 0.4))}"/>
</radialGradient>
<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75">
<stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.55"/>
</radialGradient>
<radialGradient id="soft" cx="0.5" cy="0.5" r="0.5">
<stop offset="0" stop-color="#fff" stop-opacity="0.9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/>
</radialGradient>
<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="${hex(p.near)}"/><stop offset="1" stop-color="${hex(p.ground)}"/>
</linearGradient>
<linearGradient id="water" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="${hex(mix(p.skyHorizon, p.far, 0.5))}"/><stop offset="1" stop-color="${hex(p.ground)}"/>
</linearGradient>
</defs>`;
}

export function clouds(rng: Rng, p: Palette, w: number, h: number, plan: PaintPlan, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const cx = rng.range(-0.1, 1.1) * w;
    const cy = rng.range(0.05, plan.horizon * 0.8) * h;
    const rx = rng.range(0.08, 0.22) * w;
    const ry = rx * rng.range(0.12, 0.3);
    const colour = mix(p.skyHorizon, p.light, rng.range(0.2, 0.7));
    for (let j = 0; j < 4; j++) {
      out += `<ellipse cx="${(cx + rng.range(-0.6, 0.6) * rx).toFixed(1)}" cy="${(cy + rng.range(-0.5, 0.5) * ry).toFixed(1)}" rx="${(rx * rng.range(0.5, 1)).toFixed(1)}" ry="${(ry * rng.range(0.6, 1.2)).toFixed(1)}" fill="${hex(colour)}" opacity="${rng.range(0.12, 0.3).toFixed(2)}"/>`;
    }
  }
  return out;
}

export function stars(rng: Rng, w: number, h: number, maxY: number, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const r = rng.next() ** 3 * 2.2 + 0.4;
    out += `<circle cx="${(rng.next() * w).toFixed(1)}" cy="${(rng.next() * maxY * h).toFixed(1)}" r="${((r * Math.max(w, h)) / 1024).toFixed(2)}" fill="#fff" opacity="${rng.range(0.4, 1).toFixed(2)}"/>`;
  }
  return out;
}

export function skyline(
  rng: Rng,
  p: Palette,
  w: number,
  h: number,
  baseY: number,
  colour: Rgb,
  lit: boolean,
  scale: number,
): string {
  let out = '';
  let x = -rng.range(0, 0.05) * w;
  while (x < w) {
    const bw = rng.range(0.03, 0.09) * w * scale;
    const bh = rng.range(0.08, 0.38) * h * scale;
    const y = baseY - bh;
    out += `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${bw.toFixed(1)}" height="${(h - y).toFixed(1)}" fill="${hex(adjust(colour, 0, 1, rng.range(0.85, 1.15)))}"/>`;
    if (rng.chance(0.25)) {
      out += `<rect x="${(x + bw * 0.45).toFixed(1)}" y="${(y - bh * 0.15).toFixed(1)}" width="${(bw * 0.1).toFixed(1)}" height="${(bh * 0.15).toFixed(1)}" fill="${hex(colour)}"/>`;
    }
    if (lit) {
      const cols = Math.max(2, Math.floor(bw / (w * 0.012)));
      const rows = Math.max(3, Math.floor(bh / (h * 0.025)));
      const cw = bw / (cols * 2 + 1);
      const rh = bh / (rows * 2 + 1);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (!rng.chance(0.35)) continue;
          out += `<rect x="${(x + cw * (c * 2 + 1)).toFixed(1)}" y="${(y + rh * (r * 2 + 1)).toFixed(1)}" width="${cw.toFixed(1)}" height="${rh.toFixed(1)}" fill="${hex(rng.chance(0.7) ? p.accent : p.accent2)}" opacity="${rng.range(0.5, 0.95).toFixed(2)}"/>`;
        }
      }
    }
    x += bw + rng.range(0, 0.01) * w;
  }
  return out;
}

export function trees(rng: Rng, w: number, h: number, baseY: number, colour: Rgb, count: number, size: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = rng.range(-0.05, 1.05) * w;
    const th = rng.range(0.6, 1.2) * size * h;
    const tw = th * rng.range(0.25, 0.4);
    const y = baseY + rng.range(-0.02, 0.04) * h;
    const c = hex(adjust(colour, rng.range(-8, 8), 1, rng.range(0.8, 1.15)));
    out += `<path d="M${(x - tw / 2).toFixed(1)},${y.toFixed(1)} L${x.toFixed(1)},${(y - th).toFixed(1)} L${(x + tw / 2).toFixed(1)},${y.toFixed(1)} Z" fill="${c}"/>`;
    out += `<rect x="${(x - tw * 0.06).toFixed(1)}" y="${y.toFixed(1)}" width="${(tw * 0.12).toFixed(1)}" height="${(th * 0.12).toFixed(1)}" fill="${c}"/>`;
  }
  return out;
}

export function dunes(rng: Rng, w: number, h: number, baseY: number, colour: Rgb, layers: number): string {
  let out = '';
  for (let l = 0; l < layers; l++) {
    const y0 = baseY + (l / layers) * (h - baseY) * 0.7;
    const amp = rng.range(0.02, 0.06) * h;
    const c1 = rng.range(0.2, 0.45) * w;
    const c2 = rng.range(0.55, 0.85) * w;
    out += `<path d="M0,${(y0 + amp).toFixed(1)} C${c1.toFixed(1)},${(y0 - amp * 2).toFixed(1)} ${c2.toFixed(1)},${(y0 + amp * 2).toFixed(1)} ${w},${(y0 - amp * 0.5).toFixed(1)} L${w},${h} L0,${h} Z" fill="${hex(adjust(colour, 0, 1, 0.75 + l * 0.12))}"/>`;
  }
  return out;
}

export function sea(rng: Rng, p: Palette, w: number, h: number, plan: PaintPlan): string {
  const y = plan.horizon * h;
  let out = `<rect x="0" y="${y.toFixed(1)}" width="${w}" height="${(h - y).toFixed(1)}" fill="url(#water)"/>`;
  const lx = plan.light.x * w;
  for (let i = 0; i < 40; i++) {
    const t = i / 40;
    const yy = y + (h - y) * t ** 1.6;
    const spread = (0.02 + t * 0.12) * w;
    out += `<rect x="${(lx - spread * rng.range(0.3, 1)).toFixed(1)}" y="${yy.toFixed(1)}" width="${(spread * rng.range(0.6, 2)).toFixed(1)}" height="${Math.max(1, (h - y) * 0.006 * (1 + t * 3)).toFixed(1)}" fill="${hex(p.light)}" opacity="${(0.55 * (1 - t * 0.6)).toFixed(2)}"/>`;
  }
  for (let i = 0; i < 26; i++) {
    const yy = y + (h - y) * rng.next() ** 1.3;
    const x = rng.next() * w;
    const len = rng.range(0.03, 0.12) * w;
    out += `<path d="M${x.toFixed(1)},${yy.toFixed(1)} q${(len / 2).toFixed(1)},${(-len * 0.06).toFixed(1)} ${len.toFixed(1)},0" stroke="${hex(mix(p.skyHorizon, p.light, 0.5))}" stroke-width="${Math.max(1, w / 900).toFixed(1)}" fill="none" opacity="0.35"/>`;
  }
  return out;
}

export function portrait(rng: Rng, p: Palette, w: number, h: number): string {
  const cx = w * rng.range(0.42, 0.58);
  const headR = Math.min(w, h) * rng.range(0.11, 0.14);
  const headY = h * rng.range(0.38, 0.45);
  const shoulderY = headY + headR * 1.5;
  const body = hex(adjust(p.near, 0, 0.8, 0.55));
  let out = '';
  for (let i = 0; i < 18; i++) {
    out += `<circle cx="${(rng.next() * w).toFixed(1)}" cy="${(rng.next() * h * 0.8).toFixed(1)}" r="${(rng.range(0.02, 0.07) * w).toFixed(1)}" fill="${hex(rng.chance(0.5) ? p.accent : p.light)}" opacity="${rng.range(0.08, 0.25).toFixed(2)}"/>`;
  }
  out += `<path d="M${(cx - headR * 2.6).toFixed(1)},${h} C${(cx - headR * 2.5).toFixed(1)},${(shoulderY + headR * 0.3).toFixed(1)} ${(cx - headR * 1.4).toFixed(1)},${shoulderY.toFixed(1)} ${cx.toFixed(1)},${shoulderY.toFixed(1)} C${(cx + headR * 1.4).toFixed(1)},${shoulderY.toFixed(1)} ${(cx + headR * 2.5).toFixed(1)},${(shoulderY + headR * 0.3).toFixed(1)} ${(cx + headR * 2.6).toFixed(1)},${h} Z" fill="${body}"/>`;
  out += `<rect x="${(cx - headR * 0.35).toFixed(1)}" y="${(headY + headR * 0.6).toFixed(1)}" width="${(headR * 0.7).toFixed(1)}" height="${(headR * 0.9).toFixed(1)}" fill="${body}"/>`;
  out += `<ellipse cx="${cx.toFixed(1)}" cy="${headY.toFixed(1)}" rx="${(headR * 0.82).toFixed(1)}" ry="${headR.toFixed(1)}" fill="${body}"/>`;
  out += `<ellipse cx="${(cx + headR * 0.25).toFixed(1)}" cy="${(headY - headR * 0.2).toFixed(1)}" rx="${(headR * 0.5).toFixed(1)}" ry="${(headR * 0.8).toFixed(1)}" fill="${hex(p.light)}" opacity="0.18"/>`;
  out += `<ellipse cx="${cx.toFixed(1)}" cy="${headY.toFixed(1)}" rx="${(headR * 0.86).toFixed(1)}" ry="${(headR * 1.04).toFixed(1)}" fill="none" stroke="${hex(p.accent)}" stroke-width="${(headR * 0.05).toFixed(1)}" opacity="0.5"/>`;
  return out;
}

export function product(rng: Rng, p: Palette, w: number, h: number): string {
  const cx = w * 0.5;
  const floorY = h * 0.72;
  const pw = Math.min(w, h) * rng.range(0.16, 0.24);
  const ph = pw * rng.range(1.4, 2.2);
  const body = hex(p.accent);
  let out = `<rect x="0" y="${floorY.toFixed(1)}" width="${w}" height="${(h - floorY).toFixed(1)}" fill="${hex(adjust(p.far, 0, 0.6, 0.85))}"/>`;
  out += `<ellipse cx="${cx}" cy="${floorY.toFixed(1)}" rx="${(pw * 0.9).toFixed(1)}" ry="${(pw * 0.15).toFixed(1)}" fill="#000" opacity="0.3"/>`;
  out += `<rect x="${(cx - pw / 2).toFixed(1)}" y="${(floorY - ph).toFixed(1)}" width="${pw.toFixed(1)}" height="${ph.toFixed(1)}" rx="${(pw * 0.18).toFixed(1)}" fill="${body}"/>`;
  out += `<rect x="${(cx - pw * 0.18).toFixed(1)}" y="${(floorY - ph - pw * 0.35).toFixed(1)}" width="${(pw * 0.36).toFixed(1)}" height="${(pw * 0.4).toFixed(1)}" rx="${(pw * 0.05).toFixed(1)}" fill="${hex(adjust(p.accent, 0, 0.6, 0.6))}"/>`;
  out += `<rect x="${(cx - pw * 0.32).toFixed(1)}" y="${(floorY - ph * 0.92).toFixed(1)}" width="${(pw * 0.1).toFixed(1)}" height="${(ph * 0.8).toFixed(1)}" rx="${(pw * 0.05).toFixed(1)}" fill="#fff" opacity="0.35"/>`;
  out += `<rect x="${(cx - pw * 0.35).toFixed(1)}" y="${(floorY - ph * 0.55).toFixed(1)}" width="${(pw * 0.7).toFixed(1)}" height="${(ph * 0.22).toFixed(1)}" fill="${hex(p.accent2)}" opacity="0.8"/>`;
  out += `<rect x="${(cx - pw / 2).toFixed(1)}" y="${floorY.toFixed(1)}" width="${pw.toFixed(1)}" height="${(ph * 0.35).toFixed(1)}" rx="${(pw * 0.18).toFixed(1)}" fill="${body}" opacity="0.15"/>`;
  return out;
}

export function abstractShapes(rng: Rng, p: Palette, w: number, h: number, count: number, opacity = 1): string {
  const colours = [p.accent, p.accent2, p.light, p.mid, p.skyMid, p.near];
  let out = '';
  for (let i = 0; i < count; i++) {
    const c = hex(rng.pick(colours));
    const op = (rng.range(0.25, 0.8) * opacity).toFixed(2);
    const kind = rng.int(0, 3);
    const x = rng.next() * w;
    const y = rng.next() * h;
    const s = rng.range(0.05, 0.3) * Math.min(w, h);
    if (kind === 0)
      out += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${s.toFixed(1)}" fill="${c}" opacity="${op}"/>`;
    else if (kind === 1)
      out += `<rect x="${(x - s / 2).toFixed(1)}" y="${(y - s / 2).toFixed(1)}" width="${s.toFixed(1)}" height="${(s * rng.range(0.3, 1.5)).toFixed(1)}" fill="${c}" opacity="${op}" transform="rotate(${rng.range(-45, 45).toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})"/>`;
    else if (kind === 2)
      out += `<path d="M${x.toFixed(1)},${y.toFixed(1)} C${(x + s).toFixed(1)},${(y - s).toFixed(1)} ${(x + s * 2).toFixed(1)},${(y + s).toFixed(1)} ${(x + s * 3).toFixed(1)},${y.toFixed(1)}" stroke="${c}" stroke-width="${(s * 0.08).toFixed(1)}" fill="none" opacity="${op}"/>`;
    else
      out += `<path d="M${x.toFixed(1)},${(y - s).toFixed(1)} L${(x + s).toFixed(1)},${(y + s).toFixed(1)} L${(x - s).toFixed(1)},${(y + s).toFixed(1)} Z" fill="${c}" opacity="${op}"/>`;
  }
  return out;
}

export function nebula(rng: Rng, p: Palette, w: number, h: number): string {
  let out = '';
  for (let i = 0; i < 7; i++) {
    const c = hex(rng.pick([p.accent, p.accent2, p.skyMid]));
    const r = rng.range(0.15, 0.4) * Math.max(w, h);
    out += `<circle cx="${(rng.next() * w).toFixed(1)}" cy="${(rng.next() * h).toFixed(1)}" r="${r.toFixed(1)}" fill="${c}" opacity="${rng.range(0.08, 0.2).toFixed(2)}"/>`;
  }
  const pr = rng.range(0.12, 0.22) * Math.min(w, h);
  const px = rng.range(0.2, 0.8) * w;
  const py = rng.range(0.3, 0.75) * h;
  out += `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="${pr.toFixed(1)}" fill="${hex(p.mid)}"/>`;
  out += `<circle cx="${(px - pr * 0.3).toFixed(1)}" cy="${(py - pr * 0.3).toFixed(1)}" r="${(pr * 0.8).toFixed(1)}" fill="${hex(p.light)}" opacity="0.25"/>`;
  if (rng.chance(0.6)) {
    out += `<ellipse cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" rx="${(pr * 1.8).toFixed(1)}" ry="${(pr * 0.35).toFixed(1)}" fill="none" stroke="${hex(p.accent)}" stroke-width="${(pr * 0.08).toFixed(1)}" opacity="0.6" transform="rotate(${rng.range(-25, 25).toFixed(1)} ${px.toFixed(1)} ${py.toFixed(1)})"/>`;
  }
  return out;
}

export function synthGrid(p: Palette, w: number, h: number, horizonY: number): string {
  let out = '';
  const lines = 14;
  for (let i = 1; i <= lines; i++) {
    const y = horizonY + (h - horizonY) * (i / lines) ** 2;
    out += `<line x1="0" y1="${y.toFixed(1)}" x2="${w}" y2="${y.toFixed(1)}" stroke="${hex(p.accent)}" stroke-width="${Math.max(1, w / 800).toFixed(1)}" opacity="0.7"/>`;
  }
  for (let i = -12; i <= 12; i++) {
    out += `<line x1="${(w / 2 + i * w * 0.02).toFixed(1)}" y1="${horizonY.toFixed(1)}" x2="${(w / 2 + i * w * 0.18).toFixed(1)}" y2="${h}" stroke="${hex(p.accent2)}" stroke-width="${Math.max(1, w / 800).toFixed(1)}" opacity="0.6"/>`;
  }
  return out;
}
