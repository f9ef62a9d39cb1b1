// The Characters tool's state: which characters are selected, the generation settings, prompt and scenario, and
// the one error line shared by deleting and generating; generate() follows the task to its url.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CHARACTER_ASPECT_RATIOS,
  CHARACTER_MESSAGES,
  type Character,
  type CharacterStyle,
} from '../../../common/api/characters.ts';
import { useRefreshAssets } from '../../api/assets.ts';
import { errorMessage } from '../../api/client.ts';
import { finishedOutput } from '../../api/generation.ts';
import { cacheCharacters, charactersKey, deleteCharacter, generateWithCharacters, waitForResult } from './api.ts';

export type CharacterOutput = 'image' | 'video';
export type CharacterAspectRatio = (typeof CHARACTER_ASPECT_RATIOS)[number];
/** A finished generation: the file, its kind and the engine that made it. */
export interface CharacterResult {
  url: string;
  type: CharacterOutput;
  engine: string | null;
}

export function useCharacterGeneration(list: Character[]) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refreshAssets = useRefreshAssets();
  const [selected, setSelected] = useState<string[]>([]);
  const [output, setOutput] = useState<CharacterOutput>('image');
  const [style, setStyle] = useState<CharacterStyle>('consistent');
  const [aspectRatio, setAspectRatio] = useState<CharacterAspectRatio>('1:1');
  const [prompt, setPrompt] = useState('');
  const [scenario, setScenario] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CharacterResult | null>(null);

  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  async function remove(id: string) {
    try {
      await deleteCharacter(id);
      setSelected((s) => s.filter((x) => x !== id));
      queryClient.setQueryData<Character[]>(charactersKey, (l = []) => {
        const next = l.filter((c) => c.id !== id);
        cacheCharacters(next);
        return next;
      });
    } catch (e) {
      setError(errorMessage(e, t('characters.deleteFailed')));
    }
  }

  async function generate() {
    const ids = selected.filter((id) => list.some((c) => c.id === id));
    if (!prompt.trim() || ids.length === 0) {
      setError(CHARACTER_MESSAGES.promptAndCharacter);
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const reply = await generateWithCharacters({
        service: 'stability',
        type: output === 'video' ? 'text-to-video' : 'text-to-image',
        prompt,
        scenario: scenario || undefined,
        characterIds: ids,
        aspectRatio,
        style,
        numImages: 1,
      });
      const made = finishedOutput(reply.data) ?? (await waitForResult(reply.data.taskId));
      setResult({ ...made, type: reply.data.type });
      refreshAssets();
    } catch (e) {
      setError(errorMessage(e, CHARACTER_MESSAGES.generationFailed));
    } finally {
      setBusy(false);
    }
  }

  return {
    selected,
    toggle,
    remove,
    settings: { output, setOutput, style, setStyle, aspectRatio, setAspectRatio },
    prompt,
    setPrompt,
    scenario,
    setScenario,
    busy,
    error,
    result,
    generate,
  };
}
