import { UsersRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Character } from '../../../common/api/characters.ts';
import { Button } from '../../ui/Button.tsx';
import { TextAreaField } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ToolPanelHeader } from '../../ui/ToolPanelHeader.tsx';
import { useCharacters } from './api.ts';
import { CharacterDialog } from './CharacterDialog.tsx';
import { GenerationResult, GenerationSettings } from './CharacterGeneration.tsx';
import { CharacterList } from './CharacterList.tsx';
import { useCharacterGeneration } from './useCharacterGeneration.ts';

/** The Characters side tool: the user's characters, create/edit, and generation with the selected ones. */
export function CharactersPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { data: list = [], isFetching } = useCharacters();
  const [dialog, setDialog] = useState<{ open: boolean; editing: Character | null; key: number }>({
    open: false,
    editing: null,
    key: 0,
  });
  const generation = useCharacterGeneration(list);
  const { prompt, error, result, busy } = generation;

  const openDialog = (editing: Character | null) => setDialog((d) => ({ open: true, editing, key: d.key + 1 }));

  return (
    <aside
      data-testid="tool-panel"
      data-tool="characters"
      aria-labelledby="tool-panel-characters"
      className="min-w-0 shrink-0 rounded-2xl border border-line bg-surface p-4 lg:sticky lg:top-20 lg:w-80 lg:self-start"
    >
      <div data-testid="characters" className="space-y-4">
        <ToolPanelHeader
          icon={UsersRound}
          title={t('studio.tools.characters.title')}
          titleId="tool-panel-characters"
          description={t('characters.intro')}
          onClose={onClose}
        />

        <CharacterList
          list={list}
          fetching={isFetching}
          selected={generation.selected}
          onToggle={generation.toggle}
          onOpenDialog={openDialog}
          onDelete={(id) => void generation.remove(id)}
        />

        <GenerationSettings {...generation.settings} />
        <TextAreaField
          label={t('characters.prompt')}
          value={prompt}
          onChange={(e) => generation.setPrompt(e.target.value)}
          rows={3}
        />
        <TextAreaField
          label={t('characters.scenario')}
          value={generation.scenario}
          onChange={(e) => generation.setScenario(e.target.value)}
          rows={2}
        />
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <Button
          className="w-full"
          onClick={() => void generation.generate()}
          disabled={busy}
          data-testid="characters-generate"
        >
          {busy ? <Spinner /> : t('characters.generate')}
        </Button>
        {result && <GenerationResult result={result} prompt={prompt} />}
      </div>
      <CharacterDialog
        key={dialog.key}
        editing={dialog.editing}
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
      />
    </aside>
  );
}
