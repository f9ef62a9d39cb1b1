import { describe, expect, it } from 'vitest';
import { checkDraft, createBody, EMPTY_DRAFT, hasObjective, localToday, parseDraft, planBody } from './form.ts';

const draft = { ...EMPTY_DRAFT, objective: 'Launch the shoe', budget: '300' };

describe('campaign plan form', () => {
  it('starts on the spec defaults: 1 Week, €1000, 18–35', () => {
    expect(EMPTY_DRAFT.durationDays).toBe(7);
    expect(EMPTY_DRAFT.budget).toBe('1000');
    expect([EMPTY_DRAFT.ageMin, EMPTY_DRAFT.ageMax]).toEqual([18, 35]);
    expect(hasObjective(EMPTY_DRAFT)).toBe(false);
    expect(hasObjective({ ...EMPTY_DRAFT, objective: '  ' })).toBe(false);
  });

  it('bounds the budget by the wallet with the spec message', () => {
    expect(checkDraft(draft, 30_000).budget).toBeUndefined();
    expect(checkDraft({ ...draft, budget: '750' }, 50_000).budget).toBe('Insufficient funds. Need $250.00 more.');
    expect(checkDraft({ ...draft, budget: '0' }, 50_000).budget).toBe('The budget must be at least €1');
    // Unknown wallet: only the fixed bounds apply (the server checks the rest).
    expect(checkDraft({ ...draft, budget: '750' }, null).budget).toBeUndefined();
  });

  it('needs an objective, a platform and a content type', () => {
    const errors = checkDraft({ ...draft, objective: '', platforms: [], contentTypes: [] }, 100_000);
    expect(errors.objective).toBe('Please enter a campaign objective');
    expect(errors.platforms).toBe('Select at least one platform');
    expect(errors.contentTypes).toBe('Select at least one content type');
  });

  it('refuses a start in the past and an end before the start', () => {
    const today = '2030-05-10';
    const errors = checkDraft({ ...draft, startDate: '2030-05-09', endDate: '2030-05-08' }, 100_000, today);
    expect(errors.startDate).toBe('The start date cannot be in the past');
    expect(errors.endDate).toBe('The end date cannot be before the start date');
    expect(checkDraft({ ...draft, startDate: today, endDate: today }, 100_000, today)).toEqual({});
  });

  it('reads back a stored draft, keeping the ages inside 13–70 and in order', () => {
    const stored = JSON.parse(JSON.stringify({ ...draft, ageMin: 5, ageMax: 99, platforms: ['tiktok', 'myspace'] }));
    const parsed = parseDraft(stored);
    expect(parsed?.ageMin).toBe(13);
    expect(parsed?.ageMax).toBe(70);
    expect(parsed?.objective).toBe('Launch the shoe');
    expect(parsed?.platforms).toEqual(EMPTY_DRAFT.platforms);
    expect(parseDraft('nonsense')).toBeNull();
  });

  it('builds the plan and create bodies', () => {
    const body = planBody({ ...draft, audience: ' runners ' });
    expect(body).toMatchObject({ objective: 'Launch the shoe', budget: 300, duration: 7 });
    expect(body.targetAudience).toEqual({ ageMin: 18, ageMax: 35, description: 'runners' });
    const plan = { title: 'Shoe launch', deliverables: [{ type: 'Instagram videos', quantity: 3 }] };
    const create = createBody(draft, plan as never, ['a'], 'draft');
    expect(create).toMatchObject({ title: 'Shoe launch', status: 'draft', ai_asset_ids: ['a'], startDate: null });
  });

  it('writes the local date as YYYY-MM-DD', () => {
    expect(localToday(new Date(2031, 0, 2, 23, 30))).toBe('2031-01-02');
  });
});
