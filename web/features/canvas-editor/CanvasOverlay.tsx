// The multi-image canvas editor overlay (canvas spec 2): header with the image count and enhancements in
// progress, left panel (Generate, image list, selection actions, Clear All, Reset View), the stage with its
// bottom toolbar. Loaded lazily from the studio: konva only downloads when the canvas opens.
import {
  FolderOpen,
  type Hand,
  Images,
  Layers,
  LayoutGrid,
  LogOut,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  Save,
  Sun,
  WandSparkles,
} from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { resolveTheme, usePreferences } from '../../ui/preferences.ts';
import { installCanvasDebugHandle } from '../canvas/debug.ts';
import { useCanvas } from '../canvas/store.ts';
import { AutosaveIndicator } from '../editor-sessions/AutosaveIndicator.tsx';
import { useCanvasAutosave } from '../editor-sessions/canvasAutosave.ts';
import { LeaveGuard } from '../editor-sessions/LeaveGuard.tsx';
import {
  EDITOR_TABS,
  type EditorTab,
  parseEditorTab,
  typeOfTab,
  useEditorOverlay,
} from '../editor-sessions/overlay.ts';
import { SaveSessionDialog } from '../editor-sessions/SaveSessionDialog.tsx';
import { SessionsDialog } from '../editor-sessions/SessionsDialog.tsx';
import { MagicSelectorPanel } from '../magic-selector/MagicSelectorPanel.tsx';
import { MultiCompositionTool } from '../multi-composition/MultiCompositionTool.tsx';
import { MultiReferencePanel } from '../multi-reference/MultiReferencePanel.tsx';
import { HeaderButton } from './HeaderButton.tsx';
import { ToolsView } from './ToolsView.tsx';
import { useEditorTab } from './useEditorTab.ts';
import { useSessionLoader } from './useSessionLoader.ts';

installCanvasDebugHandle();

const TAB_ICONS: Record<EditorTab, typeof Hand> = {
  canvas: LayoutGrid,
  'multi-composition': Layers,
  'magic-selector': WandSparkles,
  'multi-reference': Images,
};

/** Full-screen editor overlay: the canvas tools view and the other editors as tabs; Exit returns to /dashboard. */
export default function CanvasOverlay() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dir = useDir();
  const count = useCanvas((s) => s.images.length);
  const enhancing = useCanvas((s) => s.enhancementsInProgress);
  const [tab, setTab] = useEditorTab();
  const sessions = useSessionLoader(tab, setTab);
  const autosave = useCanvasAutosave();
  const [saveOpen, setSaveOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const collapsed = useEditorOverlay((s) => s.sidebarCollapsed);
  const toggleSidebar = useEditorOverlay((s) => s.toggleSidebar);
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);
  const dark = resolveTheme(theme) === 'dark';

  const tabTrigger = cn(
    'relative -mb-px inline-flex h-10 shrink-0 items-center gap-1.5 border-b-2 border-transparent px-3 text-sm font-medium text-muted transition-colors',
    'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg',
    'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
  );

  return (
    <div
      data-testid="canvas-overlay"
      data-editor-tab={tab}
      role="dialog"
      aria-modal="true"
      aria-labelledby="canvas-title"
      className="fixed inset-0 z-40 flex flex-col bg-bg text-fg"
    >
      <Tabs.Root
        dir={dir}
        value={tab}
        onValueChange={(value) => setTab(parseEditorTab(value))}
        activationMode="manual"
        className="flex min-h-0 flex-1 flex-col"
      >
        <header className="flex flex-wrap items-center gap-x-3 gap-y-0 border-b border-line px-3 pt-2 sm:px-4 xl:flex-nowrap xl:pt-0">
          <div className="flex min-w-0 items-center gap-2 xl:py-2">
            {tab === 'canvas' && (
              <HeaderButton
                label={collapsed ? t('editorSessions.expandSidebar') : t('editorSessions.collapseSidebar')}
                aria-pressed={collapsed}
                data-testid="editor-sidebar-toggle"
                onClick={toggleSidebar}
                icon={
                  collapsed ? (
                    <PanelLeftOpen className="size-4 rtl:-scale-x-100" aria-hidden />
                  ) : (
                    <PanelLeftClose className="size-4 rtl:-scale-x-100" aria-hidden />
                  )
                }
              />
            )}
            <h1 id="canvas-title" className="sr-only truncate text-base font-semibold sm:not-sr-only">
              {t('canvasEditor.title')}
            </h1>
            <span
              data-testid="canvas-count"
              role="status"
              aria-label={t('canvasEditor.countLabel')}
              className="shrink-0 whitespace-nowrap rounded-full bg-surface-2 px-2.5 py-0.5 text-xs font-medium tabular-nums"
            >
              {t('canvasEditor.count', { count, max: CANVAS.maxImages })}
            </span>
            <AutosaveIndicator autosave={autosave} />
            {enhancing > 0 && (
              <span
                data-testid="canvas-enhancing"
                className="shrink-0 whitespace-nowrap rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent"
              >
                {t('canvasEditor.enhancing', { count: enhancing })}
              </span>
            )}
          </div>
          <Tabs.List
            aria-label={t('editorSessions.tabsLabel')}
            data-testid="editor-tabs"
            className="order-last -mx-3 flex w-[calc(100%+1.5rem)] gap-1 overflow-x-auto px-3 sm:-mx-4 sm:w-[calc(100%+2rem)] sm:px-4 xl:order-none xl:mx-0 xl:w-auto xl:min-w-0 xl:flex-1 xl:self-end xl:px-0"
          >
            {EDITOR_TABS.map(({ id, type }) => {
              const Icon = TAB_ICONS[id];
              return (
                <Tabs.Trigger key={id} value={id} data-testid={`editor-tab-${id}`} className={tabTrigger}>
                  <Icon className="size-4" aria-hidden />
                  {t(`editorSessions.types.${type}`)}
                </Tabs.Trigger>
              );
            })}
          </Tabs.List>
          <div className="ms-auto flex shrink-0 items-center gap-1.5 py-2">
            <HeaderButton
              label={dark ? t('editorSessions.toLight') : t('editorSessions.toDark')}
              data-testid="editor-theme-toggle"
              data-theme={dark ? 'dark' : 'light'}
              onClick={() => setTheme(dark ? 'light' : 'dark')}
              icon={dark ? <Sun className="size-4" aria-hidden /> : <Moon className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('editorSessions.sessions')}
              labelFrom="sm"
              data-testid="editor-sessions-open"
              disabled={sessions.loading}
              onClick={() => setListOpen(true)}
              icon={<FolderOpen className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('editorSessions.save')}
              labelFrom="sm"
              data-testid="editor-session-save"
              onClick={() => setSaveOpen(true)}
              icon={<Save className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('canvasEditor.exit')}
              labelFrom="2xl"
              data-testid="canvas-exit"
              onClick={() => navigate('/dashboard')}
              icon={<LogOut className="size-4 rtl:-scale-x-100" aria-hidden />}
            />
          </div>
        </header>
        <Tabs.Content
          value="canvas"
          className="flex min-h-0 flex-1 flex-col overflow-y-auto focus-visible:outline-none lg:flex-row lg:overflow-hidden"
        >
          <ToolsView openTab={setTab} />
        </Tabs.Content>
        <Tabs.Content value="multi-composition" className={TOOL_TAB}>
          <MultiCompositionTool />
        </Tabs.Content>
        <Tabs.Content value="magic-selector" className={TOOL_TAB}>
          <MagicSelectorPanel layout="tab" />
        </Tabs.Content>
        <Tabs.Content value="multi-reference" className={TOOL_TAB}>
          <MultiReferencePanel layout="tab" />
        </Tabs.Content>
      </Tabs.Root>
      <LeaveGuard autosave={autosave} />
      <SaveSessionDialog
        open={saveOpen}
        onOpenChange={(open) => {
          setSaveOpen(open);
          if (!open) refocus('editor-session-save');
        }}
        type={typeOfTab(tab)}
      />
      <SessionsDialog
        open={listOpen}
        onOpenChange={(open) => {
          setListOpen(open);
          if (!open) refocus('editor-sessions-open');
        }}
        onLoad={(session) => {
          setListOpen(false);
          refocus('editor-sessions-open');
          void sessions.load(session);
        }}
      />
    </div>
  );
}

/** The dialogs open from state, not from a radix Trigger: hand focus back to their button once they close. */
function refocus(testId: string) {
  setTimeout(() => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus(), 0);
}

const TOOL_TAB = 'min-h-0 flex-1 overflow-y-auto p-3 focus-visible:outline-none sm:p-4 [&>*]:mx-auto';
