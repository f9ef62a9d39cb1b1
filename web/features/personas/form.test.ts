import { describe, expect, it } from 'vitest';
import type { PersonaImage } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  checkDraft,
  creationOutcome,
  draftBody,
  EMPTY_DRAFT,
  galleryImages,
  parseEuros,
  personaAvatar,
  splitImageFiles,
  uploadedUrls,
} from './form.ts';

const image = (
  type: PersonaImage['type'],
  status: PersonaImage['status'],
  url: string | null = null,
): PersonaImage => ({
  type,
  status,
  url,
  thumbnail_url: null,
  asset_id: null,
  error: null,
});

describe('Build Your Persona form', () => {
  it('defaults: Professional, English, free license, private', () => {
    expect(EMPTY_DRAFT).toMatchObject({
      personality: 'Professional',
      language: 'English',
      licenseType: 'free',
      isPublic: false,
    });
  });

  it('requires name and description with the spec alert', () => {
    expect(checkDraft(EMPTY_DRAFT)).toEqual({
      ok: false,
      field: 'required',
      message: 'Please fill in the required fields: Name and Description',
    });
    expect(checkDraft({ ...EMPTY_DRAFT, name: 'Ava', description: '   ' }).ok).toBe(false);
    expect(checkDraft({ ...EMPTY_DRAFT, name: 'Ava', description: 'A coach' })).toEqual({ ok: true });
  });

  it('a paid license needs a price in euros with at most 2 decimals', () => {
    const base = { ...EMPTY_DRAFT, name: 'Ava', description: 'A coach', licenseType: 'premium' as const };
    expect(checkDraft({ ...base, licensePrice: '' })).toMatchObject({ ok: false, field: 'price' });
    expect(checkDraft({ ...base, licensePrice: '12.345' })).toMatchObject({ ok: false, field: 'price' });
    expect(checkDraft({ ...base, licensePrice: '12,5' })).toEqual({ ok: true });
    expect(parseEuros('12,5')).toBe(12.5);
    expect(parseEuros('-3')).toBeNull();
    expect(parseEuros('abc')).toBeNull();
    expect(parseEuros('100001')).toBeNull();
  });

  it('builds the request: trimmed, tags normalised, free is price 0, public only when allowed', () => {
    const draft = {
      ...EMPTY_DRAFT,
      name: ' Ava ',
      description: ' Fitness coach ',
      tags: ['fitness', ' Fitness', 'yoga '],
      licensePrice: '9',
      isPublic: true,
    };
    const body = draftBody(draft, ['/a.png', '/b.png', '/c.png', '/d.png', '/e.png'], false);
    expect(body).toMatchObject({
      name: 'Ava',
      description: 'Fitness coach',
      personality: 'Professional',
      language: 'English',
      nationality: null,
      target_audience: null,
      tags: ['fitness', 'yoga'],
      license_type: 'free',
      license_price: 0,
      isPublic: false,
    });
    expect(body.custom_images).toHaveLength(4);
    expect(draftBody(draft, [], true).isPublic).toBe(true);
    expect(draftBody({ ...draft, licenseType: 'exclusive', licensePrice: '49.90' }, [], false)).toMatchObject({
      license_type: 'exclusive',
      license_price: 49.9,
    });
  });
});

describe('persona images', () => {
  it('the gallery lists the five types in spec order, missing ones pending', () => {
    const list = galleryImages({
      images: [image('face_only', 'ready', '/f.png'), image('environment', 'placeholder')],
    });
    expect(list.map((i) => i.type)).toEqual(['portrait', 'full_body', 'face_only', 'action_shot', 'environment']);
    expect(list.map((i) => i.status)).toEqual(['pending', 'pending', 'ready', 'pending', 'placeholder']);
  });

  it('the avatar is the avatar, else face_only, else portrait', () => {
    const images = { portrait: '/p.png', full_body: null, face_only: '/f.png', action_shot: null, environment: null };
    expect(personaAvatar({ avatar: '/a.png', ai_generated_images: images })).toBe('/a.png');
    expect(personaAvatar({ avatar: null, ai_generated_images: images })).toBe('/f.png');
    expect(personaAvatar({ avatar: null, ai_generated_images: { ...images, face_only: null } })).toBe('/p.png');
    expect(
      personaAvatar({ avatar: null, ai_generated_images: { ...images, face_only: null, portrait: null } }),
    ).toBeNull();
  });

  it('the creation outcome follows status, progress and placeholders', () => {
    const ready = ['portrait', 'full_body', 'face_only', 'action_shot', 'environment'].map((t) =>
      image(t as PersonaImage['type'], 'ready', `/${t}.png`),
    );
    const base = { generation_error: null, images: ready };
    expect(creationOutcome({ ...base, status: 'generating', generation_progress: 40 })).toEqual({
      kind: 'generating',
      progress: 40,
    });
    expect(creationOutcome({ ...base, status: 'ready', generation_progress: 100 })).toEqual({ kind: 'ready' });
    const partial = { ...base, images: [...ready.slice(0, 4), image('environment', 'placeholder')] };
    expect(creationOutcome({ ...partial, status: 'ready', generation_progress: 100 })).toEqual({
      kind: 'partial',
      placeholders: ['environment'],
    });
    expect(
      creationOutcome({
        status: 'failed',
        generation_progress: 0,
        generation_error: MESSAGES.personas.baseImageFailed,
        images: [],
      }),
    ).toEqual({ kind: 'failed', message: 'Failed to generate base face_only image.' });
    expect(creationOutcome({ status: 'failed', generation_progress: 0, generation_error: null, images: [] })).toEqual({
      kind: 'failed',
      message: 'Failed to generate any images.',
    });
  });

  it('dropped files must be images, and no more than the free slots', () => {
    const files = [
      { name: 'a.png', type: 'image/png' },
      { name: 'notes.txt', type: 'text/plain' },
      { name: 'b.webp', type: '' },
      { name: 'clip.mp4', type: 'video/mp4' },
      { name: 'c.jpg', type: 'image/jpeg' },
    ];
    expect(splitImageFiles(files, 4)).toEqual({
      accepted: [files[0], files[2], files[4]],
      notImages: 2,
      overLimit: 0,
    });
    expect(splitImageFiles(files, 2)).toMatchObject({ accepted: [files[0], files[2]], overLimit: 1 });
    expect(splitImageFiles(files, 0)).toMatchObject({ accepted: [], overLimit: 3 });
  });

  it('only finished uploads are sent', () => {
    const base = { name: 'x', previewUrl: 'blob:x' };
    expect(
      uploadedUrls([
        { ...base, key: '1', url: '/api/images/1.png', status: 'done' },
        { ...base, key: '2', url: null, status: 'uploading' },
        { ...base, key: '3', url: null, status: 'error' },
      ]),
    ).toEqual(['/api/images/1.png']);
  });
});
