// The Film Production Studio's wizard state, kept per user in localStorage (web/ui/drafts.tsx, key
// genpro.film.<userId>) so nothing is lost when the overlay closes or the page reloads: concept, characters,
// screenplay, production settings and the sequences with their Veo task ids.
import { create } from 'zustand';
import type { FilmWizardStep } from '../../../common/rules/film.ts';
import { readDraftText, writeDraft } from '../../ui/drafts.tsx';
import {
  type Cinematography,
  emptyWizard,
  type FilmCharacter,
  type FilmConcept,
  type FilmSequence,
  type FilmWizardData,
  newCharacter,
  type ProductionSettings,
  parseSavedWizard,
  type Screenplay,
} from './model.ts';

const SCREEN = 'film';

interface FilmStore extends FilmWizardData {
  /** Whose wizard this is; null until loaded. */
  ownerId: string | null;
  load: (userId: string) => void;
  setStep: (step: FilmWizardStep) => void;
  patchConcept: (patch: Partial<FilmConcept>) => void;
  patchSetting: (patch: Partial<FilmConcept['setting']>) => void;
  /** Adds an empty character and returns its id. */
  addCharacter: () => string;
  patchCharacter: (id: string, patch: Partial<FilmCharacter>) => void;
  removeCharacter: (id: string) => void;
  setScreenplay: (screenplay: Screenplay) => void;
  patchProduction: (patch: Partial<ProductionSettings>) => void;
  patchCinematography: (patch: Partial<Cinematography>) => void;
  setSequences: (sequences: FilmSequence[]) => void;
  updateSequence: (id: string, update: (sequence: FilmSequence) => FilmSequence) => void;
  reset: () => void;
}

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `c-${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const useFilm = create<FilmStore>((set, get) => ({
  ...emptyWizard(),
  ownerId: null,
  load: (userId) => {
    if (get().ownerId === userId) return;
    set({ ...parseSavedWizard(readDraftText(SCREEN, userId)), ownerId: userId });
  },
  setStep: (step) => set({ step }),
  patchConcept: (patch) => set((s) => ({ concept: { ...s.concept, ...patch } })),
  patchSetting: (patch) => set((s) => ({ concept: { ...s.concept, setting: { ...s.concept.setting, ...patch } } })),
  addCharacter: () => {
    const id = newId();
    set((s) => ({ characters: [...s.characters, newCharacter(id)] }));
    return id;
  },
  patchCharacter: (id, patch) =>
    set((s) => ({ characters: s.characters.map((c) => (c.id === id ? { ...c, ...patch } : c)) })),
  removeCharacter: (id) =>
    set((s) => ({
      characters: s.characters
        .filter((c) => c.id !== id)
        .map((c) => ({ ...c, relationships: c.relationships.filter((r) => r.characterId !== id) })),
    })),
  setScreenplay: (screenplay) => set({ screenplay }),
  patchProduction: (patch) => set((s) => ({ production: { ...s.production, ...patch } })),
  patchCinematography: (patch) => set((s) => ({ cinematography: { ...s.cinematography, ...patch } })),
  setSequences: (sequences) => set({ sequences }),
  updateSequence: (id, update) =>
    set((s) => ({ sequences: s.sequences.map((sequence) => (sequence.id === id ? update(sequence) : sequence)) })),
  reset: () => set({ ...emptyWizard() }),
}));

function save(state: FilmStore) {
  if (!state.ownerId) return;
  const data: FilmWizardData = {
    step: state.step,
    concept: state.concept,
    characters: state.characters,
    screenplay: state.screenplay,
    production: state.production,
    cinematography: state.cinematography,
    sequences: state.sequences,
  };
  // Storage full or unavailable: the wizard lives on for this page only.
  writeDraft(SCREEN, state.ownerId, data);
}

// Written a moment after the last change (typing does not write on every key) and at once when the page hides.
let timer: ReturnType<typeof setTimeout> | undefined;
useFilm.subscribe((state, previous) => {
  if (state.ownerId !== previous.ownerId) return;
  clearTimeout(timer);
  timer = setTimeout(() => save(useFilm.getState()), 250);
});
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    clearTimeout(timer);
    save(useFilm.getState());
  });
}
