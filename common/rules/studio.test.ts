import { describe, expect, it } from 'vitest';
import {
  ACT_STUDIO_MODEL,
  DUAL_FRAME_MODEL,
  MAGIC_MODIFY_MODEL,
  QUALITY_SUFFIX,
  VIDEO_DEFAULTS,
} from '../api/generation.constants.ts';
import { withQualitySuffix } from './generation.ts';
import {
  appendUniqueById,
  aspectRatioOfSize,
  downloadUrl,
  IMAGE_SIZES,
  mergeDualFrameImages,
  modelForSubMode,
  nearestVideoAspect,
  needsQualitySuffix,
  parseStudioMode,
  parseStudioTab,
  promptWordCount,
  STUDIO_ACTION_LABELS,
  sizeForAspectRatio,
  stepIndex,
  studioAction,
  videoModelInputs,
  videoSubModeOf,
} from './studio.ts';

describe('studio tabs and modes', () => {
  it('parses tabs; unknown tabs give "Invalid action tab"', () => {
    expect(parseStudioTab(null)).toEqual({ ok: true, tab: 'creator' });
    expect(parseStudioTab('')).toEqual({ ok: true, tab: 'creator' });
    for (const tab of ['creator', 'personas', 'campaigns', 'publish'])
      expect(parseStudioTab(tab)).toEqual({ ok: true, tab });
    expect(parseStudioTab('bogus')).toEqual({ ok: false, error: 'Invalid action tab' });
    expect(parseStudioTab('Creator')).toEqual({ ok: false, error: 'Invalid action tab' });
  });

  it('falls back to image for an unknown mode', () => {
    expect(parseStudioMode('video')).toBe('video');
    expect(parseStudioMode('audio')).toBe('audio');
    expect(parseStudioMode('image')).toBe('image');
    expect(parseStudioMode('gif')).toBe('image');
    expect(parseStudioMode(null)).toBe('image');
  });

  it('labels the main action per tab and mode', () => {
    const label = (tab: Parameters<typeof studioAction>[0], mode: Parameters<typeof studioAction>[1]) =>
      STUDIO_ACTION_LABELS[studioAction(tab, mode)];
    expect(label('creator', 'image')).toBe('Generate Image');
    expect(label('creator', 'video')).toBe('Generate Video');
    expect(label('creator', 'audio')).toBe('Generate Audio');
    expect(label('personas', 'image')).toBe('Create Persona');
    expect(label('campaigns', 'video')).toBe('Build Campaign Plan');
    expect(label('publish', 'audio')).toBe('Publish to Connected Platforms');
    expect(studioAction('personas', 'video')).toBe('createPersona');
  });
});

describe('video sub-modes', () => {
  it('follow the model', () => {
    expect(videoSubModeOf(MAGIC_MODIFY_MODEL)).toBe('magicModify');
    expect(videoSubModeOf('runway-gen4_aleph')).toBe('magicModify');
    expect(videoSubModeOf(ACT_STUDIO_MODEL)).toBe('actStudio');
    expect(videoSubModeOf(DUAL_FRAME_MODEL)).toBe('filmmakerPro');
    expect(videoSubModeOf('veo-3.1-generate-preview')).toBe('filmmakerPro');
    expect(videoSubModeOf('veo-3.0-generate-001')).toBe('normal');
    expect(videoSubModeOf('seedance')).toBe('normal');
  });

  it('picking a sub-mode picks its model; normal keeps a normal model or takes the default', () => {
    expect(modelForSubMode('magicModify', 'seedance')).toBe('runway-gen4_aleph');
    expect(modelForSubMode('actStudio', 'seedance')).toBe('runway-act_two');
    expect(modelForSubMode('filmmakerPro', 'seedance')).toBe('veo-3.1-generate-preview');
    expect(modelForSubMode('normal', 'seedance')).toBe('seedance');
    expect(modelForSubMode('normal', 'runway-act_two')).toBe(VIDEO_DEFAULTS.model);
  });

  it('shows references and characters by model capability', () => {
    expect(videoModelInputs('veo-3.0-generate-001')).toEqual({ references: true, characters: false, audio: true });
    expect(videoModelInputs('seedance')).toEqual({ references: true, characters: true, audio: false });
    expect(videoModelInputs('runway-gen4_turbo')).toEqual({ references: true, characters: true, audio: false });
  });

  it('merges first-frame references and last-frame characters without duplicates', () => {
    expect(mergeDualFrameImages(['/a', '/b'], ['/b', '/c', '/a'])).toEqual(['/a', '/b', '/c']);
    expect(mergeDualFrameImages([], [])).toEqual([]);
    expect(mergeDualFrameImages(['/a', '/a'], [])).toEqual(['/a']);
  });
});

describe('prompts', () => {
  it('counts words and says when the quality suffix will be added', () => {
    expect(promptWordCount('  a  red   fox ')).toBe(3);
    expect(needsQualitySuffix('')).toBe(false);
    expect(needsQualitySuffix('a red fox')).toBe(true);
    const twenty = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(needsQualitySuffix(twenty)).toBe(false);
    expect(needsQualitySuffix(`a red fox${QUALITY_SUFFIX}`)).toBe(false);
    // Agrees with the rule that really appends it.
    expect(withQualitySuffix('a red fox')).toBe(`a red fox${QUALITY_SUFFIX}`);
    expect(withQualitySuffix(twenty)).toBe(twenty);
  });
});

describe('sizes', () => {
  it('reads the aspect ratio of every preset', () => {
    for (const size of IMAGE_SIZES) expect(aspectRatioOfSize(size)).not.toBeNull();
    expect(aspectRatioOfSize('1024x1024')).toBe('1:1');
    expect(aspectRatioOfSize('1920x1080')).toBe('16:9');
    expect(aspectRatioOfSize('1344x768')).toBe('16:9');
    expect(aspectRatioOfSize('1080x1920')).toBe('9:16');
    expect(aspectRatioOfSize('2048x1536')).toBe('4:3');
    expect(aspectRatioOfSize('1000x300')).toBeNull();
    expect(aspectRatioOfSize('junk')).toBeNull();
  });

  it('switching the aspect ratio keeps the scale', () => {
    expect(sizeForAspectRatio('16:9', '1024x1024')).toBe('1344x768');
    expect(sizeForAspectRatio('16:9', '2048x2048')).toBe('1920x1080');
    expect(sizeForAspectRatio('9:16', '3840x2160')).toBe('2160x3840');
    expect(sizeForAspectRatio('1:1', '1920x1080')).toBe('2048x2048');
    expect(sizeForAspectRatio('21:9', '1024x1024')).toBe('1024x1024');
  });

  it('a video made from an image takes the video ratio nearest its shape', () => {
    expect(nearestVideoAspect(1920, 1080)).toBe('16:9');
    expect(nearestVideoAspect(1080, 1920)).toBe('9:16');
    expect(nearestVideoAspect(1024, 1024)).toBe('1:1');
    expect(nearestVideoAspect(1280, 1024)).toBe('1:1');
    expect(nearestVideoAspect(2048, 1024)).toBe('16:9');
    expect(nearestVideoAspect(1024, 1280)).toBe('1:1');
  });
});

describe('lists and links', () => {
  it('appends only new ids', () => {
    const a = [{ id: '1' }, { id: '2' }];
    expect(appendUniqueById(a, [{ id: '2' }, { id: '3' }, { id: '3' }])).toEqual([
      { id: '1' },
      { id: '2' },
      { id: '3' },
    ]);
    expect(appendUniqueById([], a)).toEqual(a);
  });

  it('builds download links', () => {
    expect(downloadUrl('/api/images/a.png')).toBe('/api/images/a.png?download=1');
    expect(downloadUrl('/api/images/a.png?sig=x')).toBe('/api/images/a.png?sig=x&download=1');
    expect(downloadUrl('/api/images/a.png?download=1')).toBe('/api/images/a.png?download=1');
    expect(downloadUrl('/a.png#t')).toBe('/a.png?download=1#t');
  });

  it('steps through viewer items with wrap-around', () => {
    expect(stepIndex(0, 1, 3)).toBe(1);
    expect(stepIndex(2, 1, 3)).toBe(0);
    expect(stepIndex(0, -1, 3)).toBe(2);
    expect(stepIndex(0, 1, 0)).toBe(0);
  });
});
