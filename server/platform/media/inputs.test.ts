import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { extensionOf, inlineOrMediaRef, parseMediaRef, storedKeyOf } from './inputs.ts';

const config = { publicUrl: 'https://studio.example.com' };
const key = 'generated/2025/01/3f1c7b1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.png';

describe('inlineOrMediaRef', () => {
  // The first bytes of a JPEG (FF D8 FF E0 …) in base64: it starts with '/', like a path.
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).toString('base64');

  it('tells bare base64 (a JPEG’s starts with /9j/) from the studio’s media paths', () => {
    expect(jpeg.startsWith('/9j/')).toBe(true);
    expect(inlineOrMediaRef(jpeg, 'image/jpeg')).toBe(`data:image/jpeg;base64,${jpeg}`);
    expect(inlineOrMediaRef(jpeg)).toBe(`data:application/octet-stream;base64,${jpeg}`);
    expect(inlineOrMediaRef(` ${jpeg.slice(0, 8)}\n${jpeg.slice(8)} `)).toBe(
      `data:application/octet-stream;base64,${jpeg}`,
    );
    expect(inlineOrMediaRef(`/api/images/${key}`, 'image/png')).toBe(`/api/images/${key}`);
    expect(inlineOrMediaRef(`/api/videos/${key}?expires=1&sig=abc`)).toBe(`/api/videos/${key}?expires=1&sig=abc`);
  });

  it('passes data URIs and URLs as they are, and leaves other paths for parseMediaRef to refuse', () => {
    expect(inlineOrMediaRef('data:image/png;base64,AAAA', 'image/jpeg')).toBe('data:image/png;base64,AAAA');
    expect(inlineOrMediaRef('https://cdn.example.org/a.png', 'image/png')).toBe('https://cdn.example.org/a.png');
    expect(inlineOrMediaRef('/api/images/../etc/passwd.png')).toBe('/api/images/../etc/passwd.png');
    expect(() => parseMediaRef(config, inlineOrMediaRef('/api/images/../etc/passwd.png'))).toThrow(
      MESSAGES.inputs.notAMediaUrl,
    );
  });
});

describe('parseMediaRef', () => {
  it('reads own media paths, signed or absolute on this host or a loopback host', () => {
    expect(parseMediaRef(config, `/api/images/${key}`)).toEqual({ kind: 'stored', key });
    expect(parseMediaRef(config, `/api/videos/${key}?expires=1&sig=abc`)).toEqual({ kind: 'stored', key });
    expect(parseMediaRef(config, `https://studio.example.com/api/personas/image/${key}`)).toEqual({
      kind: 'stored',
      key,
    });
    expect(parseMediaRef(config, `http://localhost:3000/api/audio/${key}`)).toEqual({ kind: 'stored', key });
  });

  it('refuses paths that are not media keys', () => {
    expect(() => parseMediaRef(config, '/api/images/../etc/passwd')).toThrow(MESSAGES.inputs.notAMediaUrl);
    expect(() => parseMediaRef(config, '/etc/passwd')).toThrow(MESSAGES.inputs.notAMediaUrl);
    expect(() => parseMediaRef(config, 'https://studio.example.com/api/auth/me')).toThrow(MESSAGES.inputs.notAMediaUrl);
    expect(() => parseMediaRef(config, '//evil.example/x.png')).toThrow(MESSAGES.remote.invalidUrl);
  });

  it('reads base64 data URIs and public URLs, and refuses other schemes', () => {
    expect(parseMediaRef(config, 'data:image/png;base64,AAAA')).toEqual({
      kind: 'data',
      mimeType: 'image/png',
      base64: 'AAAA',
    });
    expect(() => parseMediaRef(config, 'data:text/plain,hello')).toThrow(MESSAGES.remote.invalidUrl);
    expect(parseMediaRef(config, 'https://cdn.example.org/a.png')).toEqual({
      kind: 'remote',
      url: 'https://cdn.example.org/a.png',
    });
    expect(() => parseMediaRef(config, 'file:///etc/passwd')).toThrow(MESSAGES.remote.invalidUrl);
    expect(() => parseMediaRef(config, 'not a url')).toThrow(MESSAGES.remote.invalidUrl);
  });

  it('storedKeyOf gives the key or null', () => {
    expect(storedKeyOf(config, `/api/images/${key}`)).toBe(key);
    expect(storedKeyOf(config, 'https://cdn.example.org/a.png')).toBeNull();
    expect(storedKeyOf(config, 'garbage')).toBeNull();
  });

  it('maps MIME types to extensions', () => {
    expect(extensionOf('image/png')).toBe('png');
    expect(extensionOf('audio/mpeg')).toBe('mp3');
    expect(extensionOf('application/x-what')).toBe('bin');
  });
});
