import { useState } from 'react';
import type { User } from '../../common/api/auth.ts';
import { cn } from './cn.ts';

export function UserAvatar({ user, className }: { user: User; className?: string }) {
  const [failed, setFailed] = useState(false);
  const url = user.avatarUrl ?? user.avatar_url;
  const initials = `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase() || '?';
  return (
    <span
      className={cn(
        'grid size-9 shrink-0 place-items-center overflow-hidden rounded-full bg-brand-gradient text-xs font-semibold text-white',
        className,
      )}
      aria-hidden
    >
      {url && !failed ? (
        <img src={url} alt="" className="size-full object-cover" onError={() => setFailed(true)} />
      ) : (
        initials
      )}
    </span>
  );
}

/** Own public profile: /creators/{id} for creators, /brands/{id} for brands; admins have none. */
export function profileHref(user: User): string | null {
  if (user.role === 'creator') return `/creators/${user.id}`;
  if (user.role === 'brand') return `/brands/${user.id}`;
  return null;
}
