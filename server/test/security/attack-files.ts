// Hostile files for the upload attack tests: polyglots, decompression bombs, SVG with script.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const HTML_PAYLOAD = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>\n');

/** A ZIP archive holding one stored file (enough for unzip, a JAR or a PHAR loader to open it). */
export function tinyZip(): Buffer {
  const name = Buffer.from('payload.js');
  const body = Buffer.from('alert(1)\n');
  const crc = crc32(body);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(body.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(body.length, 20);
  central.writeUInt32LE(body.length, 24);
  central.writeUInt16LE(name.length, 28);
  const localSize = local.length + name.length + body.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(localSize, 16);
  return Buffer.concat([local, name, body, central, name, end]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 1-bit greyscale PNG of the given size whose pixel data is all zeros: tiny on disk, huge decoded. */
export function zeroPng(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * rows);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function realPng(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#c04020' } })
    .png()
    .toBuffer();
}

export async function realJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#2040c0' } })
    .jpeg()
    .toBuffer();
}

async function realGif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#20c040' } })
    .gif()
    .toBuffer();
}

/** A PNG with a PHP/HTML payload in a tEXt chunk: valid structure, hostile content. */
async function pngWithTextPayload(): Promise<Buffer> {
  const png = await realPng();
  const iend = png.length - 12;
  const text = pngChunk('tEXt', Buffer.from('Comment\0<?php system($_GET["c"]); ?><script>alert(1)</script>'));
  return Buffer.concat([png.subarray(0, iend), text, png.subarray(iend)]);
}

/**
 * A GIF whose header parses as JavaScript (`GIF89a=…` assignment, then script after the trailer):
 * the classic GIF/JS polyglot; with a JAR/ZIP after it, a GIFAR.
 */
async function gifJsPolyglot(): Promise<Buffer> {
  const gif = await realGif();
  return Buffer.concat([gif, Buffer.from('*/=1;alert(document.domain);//')]);
}

async function gifar(): Promise<Buffer> {
  return Buffer.concat([await realGif(), tinyZip()]);
}

/** The polyglots and disguised files, each refused by every upload route. */
export async function hostileImages(): Promise<
  { name: string; filename: string; contentType: string; data: Buffer }[]
> {
  const [png, jpeg] = await Promise.all([realPng(), realJpeg()]);
  return [
    {
      name: 'JPEG + HTML after EOI',
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([jpeg, HTML_PAYLOAD]),
    },
    {
      name: 'JPEG + PHP after EOI',
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([jpeg, Buffer.from('<?php echo shell_exec($_GET["c"]); ?>')]),
    },
    {
      name: 'PNG + ZIP after IEND',
      filename: 'image.png',
      contentType: 'image/png',
      data: Buffer.concat([png, tinyZip()]),
    },
    {
      name: 'PNG + HTML after IEND',
      filename: 'image.png',
      contentType: 'image/png',
      data: Buffer.concat([png, HTML_PAYLOAD]),
    },
    {
      name: 'PNG with PHP in a tEXt chunk',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngWithTextPayload(),
    },
    { name: 'GIF/JavaScript polyglot', filename: 'anim.gif', contentType: 'image/gif', data: await gifJsPolyglot() },
    { name: 'GIFAR (GIF + JAR)', filename: 'anim.gif', contentType: 'image/gif', data: await gifar() },
    { name: 'HTML named .png', filename: 'image.png', contentType: 'image/png', data: HTML_PAYLOAD },
    {
      name: 'PDF named .jpg',
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
    },
    { name: 'ZIP named .png', filename: 'image.png', contentType: 'image/png', data: tinyZip() },
    {
      name: 'SVG with <script>',
      filename: 'logo.svg',
      contentType: 'image/svg+xml',
      data: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(document.cookie)</script><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(1)"/></body></foreignObject></svg>',
      ),
    },
    {
      name: 'plain SVG named .png',
      filename: 'logo.png',
      contentType: 'image/png',
      data: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
    },
  ];
}

/** A small JPEG whose frame header (SOF) is patched to declare 60 000 × 60 000 pixels. */
export async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await realJpeg());
  for (let i = 2; i < jpeg.length - 9; ) {
    const marker = jpeg[i + 1];
    const length = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
    i += 2 + length;
  }
  throw new Error('no SOF marker');
}

/** Rewrites the declared track size (tkhd) and sample-entry size (avc1) of an MP4 in place. */
export function mp4Declaring(mp4: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(mp4);
  const tkhd = out.indexOf('tkhd', 0, 'latin1');
  const avc1 = out.indexOf('avc1', 0, 'latin1');
  if (tkhd < 0 || avc1 < 0) throw new Error('no tkhd/avc1 box');
  const body = tkhd + 4;
  const offset = body + (out[body] === 1 ? 88 : 76);
  out.writeUInt32BE(width * 65536, offset);
  out.writeUInt32BE(height * 65536, offset + 4);
  const entry = avc1 - 4;
  out.writeUInt16BE(Math.min(width, 65535), entry + 32);
  out.writeUInt16BE(Math.min(height, 65535), entry + 34);
  return out;
}
