// The engine catalogue (GET /api/ai/engines, issue 19): the one place the web learns which engine will
// serve a model. Every model picker, cost label and result label reads it through useModelEngines(),
// so "Veo 3 (local preview)" and its local price show wherever the local engines stand in for Veo.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { EngineModel, EngineModelKind, EnginesReply } from '../../common/api/engines.ts';
import { PRICES, type PriceItem, type PriceTable } from '../../common/api/generation.constants.ts';
import { modelName, vendorName } from '../../common/rules/engines.ts';
import { apiRequest } from './client.ts';
import { useSession } from './session.ts';

const enginesQueryKey = ['engines'] as const;

/** The catalogue for the signed-in user (kept a minute; it changes only when the server restarts). */
function useEngines() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: [...enginesQueryKey, token],
    enabled: Boolean(token),
    staleTime: 60_000,
    queryFn: ({ signal }) => apiRequest<EnginesReply>('/api/ai/engines', { signal }),
  });
}

export interface ModelEngine {
  /** The model's display name with its engine: "Veo 3 (local preview)", "Veo 3 (Google)". */
  label: string;
  /** The engine kind once the catalogue is in; null while it loads. */
  engineKind: 'local' | 'vendor' | null;
  /** The engine's name: 'local', 'gemini', … (null while loading). */
  engine: string | null;
  /** The price list that engine charges (the vendor list until the catalogue is in: never too low). */
  prices: PriceTable;
  available: boolean;
  /** Why it cannot be called, and what enables it. */
  unavailableReason: string | null;
}

/**
 * Labels and prices for models, from the catalogue: `model(kind, name)` answers the engine that will
 * serve it; `engineLabel(engine)` names the engine of a finished result (its metadata.engine).
 */
export function useModelEngines() {
  const { t } = useTranslation();
  const { data } = useEngines();
  const index = useMemo(() => {
    const map = new Map<string, EngineModel>();
    for (const m of data?.models ?? []) map.set(`${m.kind}:${m.model.toLowerCase()}`, m);
    return map;
  }, [data]);

  const model = useCallback(
    (kind: EngineModelKind, name: string): ModelEngine => {
      const entry = index.get(`${kind}:${name.toLowerCase()}`);
      const display = modelName(entry?.model ?? name);
      if (!entry) {
        return {
          label: display,
          engineKind: null,
          engine: null,
          prices: PRICES,
          available: true,
          unavailableReason: null,
        };
      }
      const label = !entry.available
        ? t('engines.unavailable', { name: display })
        : entry.engineKind === 'local'
          ? t('engines.localPreview', { name: display })
          : t('engines.vendor', { name: display, vendor: entry.vendor ?? entry.engine });
      return {
        label,
        engineKind: entry.engineKind,
        engine: entry.engine,
        prices: entry.engineKind === 'local' && data ? data.prices.local : PRICES,
        available: entry.available,
        unavailableReason: entry.unavailableReason,
      };
    },
    [index, data, t],
  );

  /** "the local preview engine" / "Google": who made a result, from its metadata.engine. */
  const engineLabel = useCallback(
    (engine: string) =>
      engine === 'local' ? t('engines.localEngine') : (vendorName(engine) ?? t('engines.localEngine')),
    [t],
  );

  return { model, engineLabel, ready: Boolean(data) };
}

/** What `item` costs on the engine that will serve `model` (the vendor price until the catalogue is in). */
export function usePrice(kind: EngineModelKind, model: string, item: PriceItem): number {
  return useModelEngines().model(kind, model).prices[item];
}
