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

export async function realGif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#20c040' } })
    .gif()
    .toBuffer();
}

export async function realWebp(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#c0c020' } })
    .webp()
    .toBuffer();
}

/** A PNG with `payload` in a tEXt chunk before IEND: valid structure, hostile content. */
async function pngWithText(payload: string): Promise<Buffer> {
  const png = await realPng();
  const iend = png.length - 12;
  const text = pngChunk('tEXt', Buffer.from(`Comment\0${payload}`));
  return Buffer.concat([png.subarray(0, iend), text, png.subarray(iend)]);
}

/** A PNG with a PHP/HTML payload in a tEXt chunk. */
function pngWithTextPayload(): Promise<Buffer> {
  return pngWithText('<?php system($_GET["c"]); ?><script>alert(1)</script>');
}

/** The PNG signature and IHDR chunk of a real PNG, then `tail` instead of the image data and IEND. */
async function pngHeaderThen(tail: Buffer): Promise<Buffer> {
  return Buffer.concat([(await realPng()).subarray(0, 33), tail]);
}

/** A PNG whose IDAT holds bytes that are not zlib data (CRC recomputed): whole structure, no image. */
async function pngWithBrokenPixels(): Promise<Buffer> {
  const png = await realPng();
  const ihdrEnd = 33;
  const iend = png.length - 12;
  const garbage = Buffer.alloc(64, 0x5a);
  return Buffer.concat([png.subarray(0, ihdrEnd), pngChunk('IDAT', garbage), png.subarray(iend)]);
}

/** The GIF header and colour table of a real GIF, then `tail` instead of the image and trailer. */
async function gifHeaderThen(tail: Buffer): Promise<Buffer> {
  const gif = await realGif();
  const tableSize = gif[10] & 0x80 ? 3 * 2 ** ((gif[10] & 7) + 1) : 0;
  return Buffer.concat([gif.subarray(0, 13 + tableSize), tail]);
}

/** A JPEG with `payload` in a comment (COM) segment right after SOI. */
async function jpegWithComment(payload: string): Promise<Buffer> {
  const jpeg = await realJpeg();
  const body = Buffer.from(payload);
  const head = Buffer.from([0xff, 0xfe, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

/** A WebP with an extra RIFF chunk holding `payload`, the RIFF size raised to cover it. */
async function webpWithChunk(payload: string): Promise<Buffer> {
  const webp = await realWebp();
  const body = Buffer.from(payload.length % 2 ? `${payload} ` : payload);
  const head = Buffer.alloc(8);
  head.write('XHTM', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  const out = Buffer.concat([webp, head, body]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

/**
 * A phone JPEG as a Samsung camera writes it: the photo, then Samsung's metadata trailer (a data
 * block, the SEFH directory, its length and "SEFT"). The studio stores the photo without the trailer.
 */
export async function samsungJpeg(): Promise<{ data: Buffer; photoBytes: number }> {
  const photo = await realJpeg();
  const name = Buffer.from('Image_UTC_Data');
  const block = Buffer.alloc(8);
  block.writeUInt16LE(0x0a01, 2);
  block.writeUInt32LE(name.length, 4);
  const data = Buffer.concat([block, name, Buffer.from('1718000000000')]);
  const directory = Buffer.alloc(24);
  directory.write('SEFH', 0, 'latin1');
  directory.writeUInt32LE(107, 4);
  directory.writeUInt32LE(1, 8);
  directory.writeUInt16LE(0x0a01, 14);
  directory.writeUInt32LE(directory.length + data.length, 16);
  directory.writeUInt32LE(data.length, 20);
  const footer = Buffer.alloc(8);
  footer.writeUInt32LE(directory.length, 0);
  footer.write('SEFT', 4, 'latin1');
  return { data: Buffer.concat([photo, data, directory, footer]), photoBytes: photo.length };
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

const EVENT_HANDLER_PAYLOAD = Buffer.from('<img src=x onerror=alert(document.cookie)>');

/** The polyglots and disguised files, each refused by every upload route. */
export async function hostileImages(): Promise<
  { name: string; filename: string; contentType: string; data: Buffer }[]
> {
  const [png, jpeg, webp] = await Promise.all([realPng(), realJpeg(), realWebp()]);
  return [
    // Issue 17: a format's header, then markup, and no end marker.
    {
      name: 'PNG header + <img onerror>, no IEND',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngHeaderThen(EVENT_HANDLER_PAYLOAD),
    },
    {
      name: 'PNG header + a link, no IEND',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngHeaderThen(Buffer.from('<a href=https://evil.example/>click</a>')),
    },
    {
      name: 'GIF header + <svg/onload>, no trailer',
      filename: 'anim.gif',
      contentType: 'image/gif',
      data: await gifHeaderThen(Buffer.from('<svg/onload=alert(1)>')),
    },
    {
      name: 'JPEG cut before EOI + markup',
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([jpeg.subarray(0, jpeg.length - 2), Buffer.from('<b onmouseover=alert(1)>x</b>')]),
    },
    {
      name: 'WebP whose RIFF size runs past the file',
      filename: 'image.webp',
      contentType: 'image/webp',
      data: webp.subarray(0, webp.length - 10),
    },
    {
      name: 'WebP + HTML after its RIFF size',
      filename: 'image.webp',
      contentType: 'image/webp',
      data: Buffer.concat([webp, EVENT_HANDLER_PAYLOAD]),
    },
    {
      name: 'WebP with <meta refresh> inside its RIFF size',
      filename: 'image.webp',
      contentType: 'image/webp',
      data: await webpWithChunk('<meta http-equiv="refresh" content="0;url=https://evil.example/">'),
    },
    // Issue 17: markup the earlier scan missed, in a well-formed file.
    {
      name: 'PNG with an event handler in a tEXt chunk',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngWithText('<div onmouseover="alert(1)">hover</div>'),
    },
    {
      name: 'PNG with a javascript: URL in a tEXt chunk',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngWithText('javascript:alert(document.domain)'),
    },
    {
      name: 'JPEG with <img onerror> in a comment',
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: await jpegWithComment(EVENT_HANDLER_PAYLOAD.toString()),
    },
    // Issue 17: the structure is whole but the image does not decode.
    {
      name: 'PNG with pixel data that does not decode',
      filename: 'image.png',
      contentType: 'image/png',
      data: await pngWithBrokenPixels(),
    },
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
