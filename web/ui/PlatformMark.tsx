import type { ReactNode } from 'react';
import type { SocialPlatform } from '../../common/api/social.ts';
import { cn } from './cn.ts';

// Each network's mark: a simplified brand glyph drawn in white on the network's colour (darkened where white on
// it would be under 4.5:1), on a 24-unit grid. The icon set has no brand logos.
const GLYPHS: Record<SocialPlatform, ReactNode> = {
  instagram: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="3.6" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="16.7" cy="7.3" r="1.2" fill="currentColor" />
    </>
  ),
  tiktok: (
    <path
      fill="currentColor"
      d="M16.6 5.8A4.3 4.3 0 0 1 15.5 3h-3.1v12.4a2.6 2.6 0 1 1-2.6-2.6c.3 0 .5 0 .8.1V9.7a5.8 5.8 0 0 0-.8-.1 5.7 5.7 0 1 0 5.7 5.7V9a7.4 7.4 0 0 0 4.3 1.4V7.3a4.3 4.3 0 0 1-3.2-1.5Z"
    />
  ),
  youtube: (
    <>
      <rect x="2.5" y="5.5" width="19" height="13" rx="4" fill="currentColor" />
      <path fill="#cc0029" d="M10 9v6l5.2-3z" />
    </>
  ),
  twitter: (
    <path
      fill="currentColor"
      d="M17.8 3.5h2.9l-6.3 7.2 7.4 9.8h-5.8l-4.5-5.9-5.2 5.9H3.4l6.8-7.7L3 3.5h5.9l4.1 5.4Zm-1 15.3h1.6L7.3 5.1H5.6Z"
    />
  ),
  linkedin: (
    <g fill="currentColor">
      <rect x="4.5" y="9.5" width="3.2" height="10" />
      <circle cx="6.1" cy="5.9" r="1.9" />
      <path d="M10.3 9.5h3v1.4c.5-.9 1.6-1.7 3.3-1.7 3.1 0 3.7 2 3.7 4.7v5.6h-3.2v-5c0-1.2 0-2.7-1.6-2.7s-1.9 1.3-1.9 2.6v5.1h-3.3Z" />
    </g>
  ),
  facebook: (
    <path
      fill="currentColor"
      d="M13.6 21v-7.6h2.6l.4-3h-3V8.5c0-.9.3-1.5 1.6-1.5h1.6V4.3c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H8v3h2.6V21Z"
    />
  ),
};

const TONES: Record<SocialPlatform, string> = {
  instagram: 'bg-gradient-to-br from-[#f58529] via-[#dd2a7b] to-[#8134af]',
  tiktok: 'bg-[#111] ring-1 ring-white/15',
  youtube: 'bg-[#cc0029]',
  twitter: 'bg-[#111] ring-1 ring-white/15',
  linkedin: 'bg-[#0a66c2]',
  facebook: 'bg-[#1466d6]',
};

const SIZES = {
  md: 'size-9 rounded-lg',
  sm: 'size-6 rounded-md',
  xs: 'size-5 rounded',
  /** A month chip: small on a narrow calendar (on the preview's corner), as xs on a wide one. */
  chip: 'size-4 rounded-sm @3xl:size-5 @3xl:rounded',
} as const;

/**
 * A network's mark. With `label` it is an image with that name (where no text names the network beside it);
 * without, it is decoration beside the network's name.
 */
export function PlatformMark({
  platform,
  size = 'md',
  label,
}: {
  platform: SocialPlatform;
  size?: keyof typeof SIZES;
  label?: string;
}) {
  return (
    <span
      className={cn('grid shrink-0 place-items-center text-white', SIZES[size], TONES[platform])}
      data-platform-mark={platform}
    >
      {label ? (
        <svg viewBox="0 0 24 24" className="size-[66%]" focusable="false" role="img" aria-label={label}>
          <title>{label}</title>
          {GLYPHS[platform]}
        </svg>
      ) : (
        <svg viewBox="0 0 24 24" className="size-[66%]" focusable="false" aria-hidden>
          {GLYPHS[platform]}
        </svg>
      )}
    </span>
  );
}
