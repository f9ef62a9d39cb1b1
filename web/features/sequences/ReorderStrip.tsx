// The timeline editor's drag-to-reorder strip (@dnd-kit, pointer and keyboard).
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { cn } from '../../ui/cn.ts';
import { type SequenceItem, useSequences } from './store.ts';
import { sequenceText } from './text.ts';
import { clipThumbnail } from './timeline.ts';

function StripItem({ item, index }: { item: SequenceItem; index: number }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="timeline-strip-item"
      data-item-id={item.id}
      className={cn(
        'relative w-28 shrink-0 overflow-hidden rounded-lg border border-line bg-surface',
        isDragging && 'z-10 shadow-lg ring-2 ring-accent',
      )}
    >
      <button
        type="button"
        {...attributes}
        {...listeners}
        aria-label={t('sequences.dragItem', { index: index + 1 })}
        className="block w-full cursor-grab touch-none text-start focus-visible:outline-2 focus-visible:outline-accent active:cursor-grabbing"
      >
        <img src={clipThumbnail(item)} alt="" className="aspect-video w-full object-cover" draggable={false} />
        <span className="flex items-center gap-1 px-1.5 py-1 text-xs text-muted">
          <GripVertical className="size-3" aria-hidden />
          {index + 1}
        </span>
      </button>
    </li>
  );
}

export function ReorderStrip({ items }: { items: SequenceItem[] }) {
  const { t } = useTranslation();
  const reorder = useSequences((state) => state.reorder);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const ids = useSequences.getState().items.map((item) => item.id);
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    // A reorder only when the drop position differs (spec 5).
    if (reorder(from, to)) toast.success(sequenceText('reordered'));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={items.map((item) => item.id)} strategy={horizontalListSortingStrategy}>
        <ol className="flex gap-2 overflow-x-auto pb-2" aria-label={t('sequences.reorderStrip')}>
          {items.map((item, index) => (
            <StripItem key={item.id} item={item} index={index} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
