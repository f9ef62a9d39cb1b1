import { type CollisionDetection, closestCenter, type KeyboardCoordinateGetter, pointerWithin } from '@dnd-kit/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarView, neighbourSlot, parseSlotId } from './calendarMath.ts';
import { dayParts, hourLabel } from './WeekView.tsx';

// Dragging posts in the calendar: where the keyboard moves a picked-up post, and how a slot is named aloud.

// The pointer drops where it is; the keyboard on the slot its arrows chose (see useKeyboardMoves).
function collisionWith(keyboardSlot: { current: string | null }): CollisionDetection {
  return (args) =>
    args.pointerCoordinates
      ? pointerWithin(args)
      : keyboardSlot.current
        ? [{ id: keyboardSlot.current }]
        : closestCenter(args);
}

/**
 * Keyboard moves by slot, not by pixels: Space picks a post up in its own slot, each arrow names the next open slot
 * (the card is drawn over it) and Space drops it there.
 */
export function useKeyboardMoves(view: CalendarView, rtl: boolean) {
  const keyboardSlot = useRef<string | null>(null);
  const coordinateGetter: KeyboardCoordinateGetter = (event, { context }) => {
    const from = keyboardSlot.current;
    const card = context.collisionRect;
    if (!from || !card || !event.code.startsWith('Arrow')) return undefined;
    event.preventDefault();
    const open = (id: string) => {
      const container = context.droppableContainers.get(id);
      return Boolean(container && !container.disabled && context.droppableRects.get(id));
    };
    const next = neighbourSlot(from, event.code, view, rtl, open);
    const rect = next ? context.droppableRects.get(next) : undefined;
    if (!next || !rect) return undefined;
    keyboardSlot.current = next;
    return { x: rect.left + (rect.width - card.width) / 2, y: rect.top + 4 };
  };
  return { keyboardSlot, coordinateGetter, collision: collisionWith(keyboardSlot) };
}

export function useSlotName(): (id: string | number | undefined) => string {
  const { i18n } = useTranslation();
  return (id) => {
    const slot = parseSlotId(String(id ?? ''));
    if (!slot) return '';
    const day = dayParts(slot.date, i18n.language).full;
    return slot.hour === null ? day : `${day}, ${hourLabel(slot.hour, i18n.language)}`;
  };
}
