// Play Timeline's state: where the playhead stands, and the clips played in order in one <video>.
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { create } from 'zustand';
import { hasFinishedVideo, playableItems } from '../../../common/rules/sequences.ts';
import type { SequenceItem } from './store.ts';
import { sequenceText } from './text.ts';
import { locateTime, timelineLength, timelineTimeOf } from './timeline.ts';

/** Where the playhead stands, in timeline seconds: written many times a second while playing, so kept apart. */
export const usePlayhead = create<{ seconds: number; set: (seconds: number) => void }>()((set) => ({
  seconds: 0,
  set: (seconds) => set({ seconds: Math.round(seconds * 100) / 100 }),
}));

/**
 * Play Timeline: the clips with a video, in order, each from its start for its duration, in one <video>, from
 * the playhead on. The playhead follows the video; seeking moves the playback with it.
 */
export function useTimelinePlayback(items: SequenceItem[]) {
  const video = useRef<HTMLVideoElement>(null);
  const [current, setCurrent] = useState<{ id: string; from: number; key: number } | null>(null);
  const latest = useRef(items);
  latest.current = items;
  // timeupdate and ended can both report the end of one clip: it moves on once.
  const finished = useRef<number | null>(null);
  // Each start of a clip gets a new key, so the <video> starts afresh even on the same clip.
  const starts = useRef(0);

  // The first clip with a video at or after a timeline time, and where in it to start.
  const startAt = (seconds: number) => {
    const list = latest.current;
    const spot = locateTime(list, seconds);
    if (!spot) return null;
    for (let index = spot.index; index < list.length; index++) {
      const item = list[index] as SequenceItem;
      if (!hasFinishedVideo(item)) continue;
      return { id: item.id, from: index === spot.index ? spot.clipTime : item.startTime, key: ++starts.current };
    }
    return null;
  };

  useEffect(() => {
    if (!current) return;
    let frame = 0;
    const follow = () => {
      const element = video.current;
      if (element) usePlayhead.getState().set(timelineTimeOf(latest.current, current.id, element.currentTime));
      frame = requestAnimationFrame(follow);
    };
    frame = requestAnimationFrame(follow);
    return () => cancelAnimationFrame(frame);
  }, [current]);

  const play = () => {
    if (playableItems(latest.current).length === 0) {
      toast.error(sequenceText('noVideosToPlay'));
      return;
    }
    const { seconds } = usePlayhead.getState();
    const atEnd = seconds >= timelineLength(latest.current) - 0.05;
    setCurrent(startAt(atEnd ? 0 : seconds) ?? startAt(0));
  };
  const stop = () => {
    video.current?.pause();
    setCurrent(null);
  };
  const next = () => {
    if (!current || finished.current === current.key) return;
    finished.current = current.key;
    const list = latest.current;
    const index = list.findIndex((item) => item.id === current.id);
    const following = list.slice(index + 1).find(hasFinishedVideo);
    if (following) {
      setCurrent({ id: following.id, from: following.startTime, key: ++starts.current });
      return;
    }
    setCurrent(null);
    usePlayhead.getState().set(timelineLength(list));
    toast.success(sequenceText('playbackCompleted'));
  };
  const seek = (seconds: number) => {
    usePlayhead.getState().set(seconds);
    if (!current) return;
    const target = startAt(seconds);
    if (!target) return stop();
    if (target.id === current.id && video.current) video.current.currentTime = target.from;
    else setCurrent(target);
  };

  const clips = playableItems(items);
  const clip = current ? (items.find((item) => item.id === current.id) ?? null) : null;
  return { video, current, clip, clips, play, stop, next, seek };
}

export type Playback = ReturnType<typeof useTimelinePlayback>;
