import type { SocialPlatform } from '../../../common/api/social.ts';
import { cn } from '../../ui/cn.ts';

// Monograms in each platform's colour (the icon set has no brand logos), darkened where white on it would be
// under 4.5:1.
const MARKS: Record<SocialPlatform, { mark: string; tone: string }> = {
  instagram: { mark: 'IG', tone: 'bg-gradient-to-br from-[#f58529] via-[#dd2a7b] to-[#8134af]' },
  tiktok: { mark: 'TT', tone: 'bg-[#111] ring-1 ring-white/15' },
  youtube: { mark: 'YT', tone: 'bg-[#cc0029]' },
  twitter: { mark: 'X', tone: 'bg-[#111] ring-1 ring-white/15' },
  linkedin: { mark: 'in', tone: 'bg-[#0a66c2]' },
  facebook: { mark: 'f', tone: 'bg-[#1466d6]' },
};

export function PlatformMark({ platform, size = 'md' }: { platform: SocialPlatform; size?: 'sm' | 'md' }) {
  const { mark, tone } = MARKS[platform];
  return (
    <span
      className={cn(
        'grid shrink-0 place-items-center font-bold text-white',
        size === 'md' ? 'size-9 rounded-lg text-xs' : 'size-6 rounded-md text-xs',
        tone,
      )}
      aria-hidden
    >
      {mark}
    </span>
  );
}
