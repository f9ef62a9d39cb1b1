import { useQuery } from '@tanstack/react-query';
import { BookOpen, Bot, SendHorizontal, Trash2, User } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_FAILURE_MESSAGE, CHAT_MESSAGE_MAX } from '../../../common/api/chat.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { DialogTitleBar } from '../../ui/DialogTitleBar.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { askGenPro, type ChatSource, getHelpPage } from './api.ts';
import { blocksOf, type ChatMessage, historyOf, loadMessages, saveMessages } from './history.ts';

const SUGGESTIONS = ['compile', 'credits', 'magicSelector', 'schedule'] as const;

function newId() {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

/** The chatWithGenPro view (accounts spec 2.1, 5, 8): ask the assistant, answers quote the help pages. */
export default function ChatView() {
  return <ChatPanel className="mt-6 h-[calc(100dvh-15rem)] min-h-[26rem] md:h-[calc(100dvh-13rem)]" />;
}

/**
 * The conversation with the assistant: on the chat view, and on the public home page for visitors who are not
 * signed in (the chat call answers them from the help pages). Each question carries the conversation so far.
 */
export function ChatPanel({ className, testId = 'chat-view' }: { className?: string; testId?: string }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<ChatMessage[]>(loadMessages);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  const [helpPage, setHelpPage] = useState<ChatSource | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => saveMessages(messages.filter((m) => m.content || !pending)), [messages, pending]);
  useEffect(() => () => abortRef.current?.abort(), []);
  // Keep the newest message in view as it arrives or grows.
  useEffect(() => {
    const list = listRef.current;
    if (list && messages.length > 0) list.scrollTop = list.scrollHeight;
  }, [messages]);

  async function send(text: string) {
    const message = text.trim();
    if (!message || pending) return;
    const history = historyOf(messages);
    const question: ChatMessage = { id: newId(), role: 'user', content: message, timestamp: Date.now() };
    const answerId = newId();
    setMessages((list) => [...list, question, { id: answerId, role: 'assistant', content: '', timestamp: Date.now() }]);
    setDraft('');
    setPending(true);
    const abort = new AbortController();
    abortRef.current = abort;
    const update = (patch: Partial<ChatMessage>) =>
      setMessages((list) => list.map((m) => (m.id === answerId ? { ...m, ...patch } : m)));
    try {
      const answer = await askGenPro(message, history, (soFar) => update({ content: soFar }), abort.signal);
      update({ content: answer.response, sources: answer.sources, timestamp: Date.now() });
    } catch (error) {
      if (abort.signal.aborted) return;
      console.error('chat failed', error);
      update({ content: CHAT_FAILURE_MESSAGE, failed: true, sources: [] });
    } finally {
      if (!abort.signal.aborted) {
        setPending(false);
        requestAnimationFrame(() => inputRef.current?.focus());
      }
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void send(draft);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(draft);
    }
  }

  function clear() {
    abortRef.current?.abort();
    setPending(false);
    setMessages([]);
  }

  return (
    <section
      data-testid={testId}
      aria-label={t('chat.title')}
      className={cn('flex flex-col overflow-hidden rounded-2xl border border-line bg-surface', className)}
    >
      <div className="flex items-center gap-2 border-b border-line px-4 py-2.5">
        <p className="min-w-0 flex-1 line-clamp-2 text-xs text-muted">{t('chat.groundedHint')}</p>
        {messages.length > 0 && (
          <Button variant="ghost" size="sm" onClick={clear} data-testid="chat-clear">
            <Trash2 className="size-4" aria-hidden />
            {t('chat.clear')}
          </Button>
        )}
      </div>

      <div
        ref={listRef}
        data-testid="chat-messages"
        role="log"
        aria-live="polite"
        aria-busy={pending}
        className="flex-1 space-y-4 overflow-y-auto px-3 py-4 sm:px-5"
      >
        {messages.length === 0 ? (
          <div className="mx-auto flex max-w-md flex-col items-center py-8 text-center" data-testid="chat-empty">
            <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
              <Bot className="size-6" aria-hidden />
            </span>
            <h2 className="mt-4 text-base font-semibold">{t('chat.emptyTitle')}</h2>
            <p className="mt-1 text-sm text-muted">{t('chat.emptyBody')}</p>
            <div className="mt-5 flex flex-wrap justify-center gap-2">
              {SUGGESTIONS.map((key) => (
                <button
                  key={key}
                  type="button"
                  onClick={() => void send(t(`chat.suggestions.${key}`))}
                  className="rounded-full border border-line bg-surface-2 px-3 py-1.5 text-start text-xs text-fg hover:border-line-strong focus-visible:outline-2 focus-visible:outline-accent"
                >
                  {t(`chat.suggestions.${key}`)}
                </button>
              ))}
            </div>
          </div>
        ) : (
          messages.map((m) => <Message key={m.id} message={m} pending={pending} onOpenSource={setHelpPage} />)
        )}
      </div>

      <form onSubmit={onSubmit} className="border-t border-line bg-surface p-3" data-testid="chat-form">
        <div className="flex items-end gap-2">
          <label htmlFor="chat-input" className="sr-only">
            {t('chat.inputLabel')}
          </label>
          <textarea
            id="chat-input"
            ref={inputRef}
            data-testid="chat-input"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            readOnly={pending}
            aria-disabled={pending}
            maxLength={CHAT_MESSAGE_MAX}
            rows={2}
            placeholder={t('chat.placeholder')}
            className={cn(
              'max-h-40 min-h-11 flex-1 resize-none rounded-xl border border-line bg-surface-2 px-3 py-2.5 text-sm text-fg placeholder:text-subtle',
              'focus-visible:border-accent focus-visible:outline-none',
              pending && 'cursor-not-allowed opacity-60',
            )}
          />
          <Button
            type="submit"
            data-testid="chat-send"
            className="h-11 shrink-0"
            disabled={pending || !draft.trim()}
            loading={pending}
            aria-label={t('chat.send')}
          >
            {!pending && <SendHorizontal className="size-4 rtl:-scale-x-100" aria-hidden />}
            <span className="hidden sm:inline">{t('chat.send')}</span>
          </Button>
        </div>
        <p className="mt-1.5 hidden text-xs text-subtle sm:block">{t('chat.keyboardHint')}</p>
      </form>

      <HelpPageDialog source={helpPage} onClose={() => setHelpPage(null)} />
    </section>
  );
}

function Message({
  message,
  pending,
  onOpenSource,
}: {
  message: ChatMessage;
  pending: boolean;
  onOpenSource: (source: ChatSource) => void;
}) {
  const { t } = useTranslation();
  const mine = message.role === 'user';
  const waiting = !mine && !message.content && pending;
  return (
    <div
      data-testid={mine ? 'chat-message-user' : 'chat-message-assistant'}
      data-failed={message.failed || undefined}
      className={cn('flex gap-2.5', mine && 'flex-row-reverse')}
    >
      <span
        className={cn(
          'mt-0.5 grid size-7 shrink-0 place-items-center rounded-full',
          mine ? 'bg-surface-3 text-muted' : 'bg-accent-soft text-accent',
        )}
        aria-hidden
      >
        {mine ? <User className="size-4" /> : <Bot className="size-4" />}
      </span>
      <div
        className={cn(
          'min-w-0 max-w-[85%] rounded-2xl px-3.5 py-2.5 text-sm leading-relaxed sm:max-w-[75%]',
          mine ? 'bg-accent text-accent-fg' : 'border border-line bg-surface-2 text-fg',
          message.failed && 'border-danger/40 text-danger',
        )}
      >
        <span className="sr-only">{mine ? t('chat.you') : t('chat.assistant')}: </span>
        {waiting ? (
          <span className="flex items-center gap-2 text-muted" data-testid="chat-pending">
            <Spinner className="size-4" />
            {t('chat.thinking')}
          </span>
        ) : mine ? (
          <p dir="auto" className="whitespace-pre-wrap break-words">
            {message.content}
          </p>
        ) : (
          <div className="space-y-2 break-words" data-testid="chat-answer">
            {blocksOf(message.content).map((block, i) =>
              block.quote ? (
                <blockquote
                  // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional and never reordered
                  key={i}
                  dir="auto"
                  className="whitespace-pre-wrap border-s-2 border-accent/60 ps-3 text-fg/90"
                >
                  {block.text}
                </blockquote>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional and never reordered
                <p key={i} dir="auto" className="whitespace-pre-wrap">
                  {block.text}
                </p>
              ),
            )}
          </div>
        )}
        {message.sources && message.sources.length > 0 && (
          <div
            className="mt-3 flex flex-wrap items-baseline gap-x-2 gap-y-1 border-t border-line pt-2"
            data-testid="chat-sources"
          >
            <p className="text-xs text-muted">{t('chat.sources')}</p>
            <ul className="flex min-w-0 flex-wrap gap-x-3 gap-y-1">
              {message.sources.map((source) => (
                <li key={source.url} className="min-w-0">
                  <a
                    href={source.url}
                    data-testid="chat-source"
                    onClick={(e) => {
                      e.preventDefault();
                      onOpenSource(source);
                    }}
                    className="inline-flex items-center gap-1 rounded-md text-xs font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent"
                  >
                    <BookOpen className="size-3.5" aria-hidden />
                    {source.title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

function HelpPageDialog({ source, onClose }: { source: ChatSource | null; onClose: () => void }) {
  const { t } = useTranslation();
  const page = useQuery({
    queryKey: ['help-page', source?.url],
    queryFn: ({ signal }) => getHelpPage(source?.url ?? '', signal),
    enabled: source !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Dialog.Root open={source !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="help-page-dialog"
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[88vh] w-[min(42rem,94vw)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-line bg-surface shadow-xl"
        >
          <DialogTitleBar title={source?.title ?? ''} />
          <div className="overflow-y-auto px-5 py-4" dir="ltr">
            {page.isPending ? (
              <div className="flex justify-center py-10">
                <Spinner className="size-6" />
              </div>
            ) : page.isError ? (
              <p className="text-sm text-danger">{t('chat.helpFailed')}</p>
            ) : (
              <pre className="whitespace-pre-wrap break-words font-sans text-sm leading-relaxed text-fg">
                {page.data.markdown}
              </pre>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
