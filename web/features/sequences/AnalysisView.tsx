// The timeline editor's Movie Agent Analysis.
import { useTranslation } from 'react-i18next';
import type { MovieAgentReply } from './api.ts';
import { useSequences } from './store.ts';

export function AnalysisView() {
  const { t } = useTranslation();
  const analysis = useSequences((state) => state.analysis);
  if (!analysis) return <p className="text-xs text-muted">{t('sequences.noAnalysis')}</p>;
  const detail = analysis.analysis as Partial<MovieAgentReply['analysis']> | string | null;
  return (
    <div className="space-y-1.5 text-xs" data-testid="timeline-analysis">
      <p>
        <span className="text-muted">{t('sequences.contentType')}: </span>
        {analysis.contentType || '—'}
      </p>
      <p>
        <span className="text-muted">{t('sequences.sequenceCount')}: </span>
        {analysis.sequenceCount}
      </p>
      {typeof detail === 'string' ? (
        <p className="whitespace-pre-wrap">{detail}</p>
      ) : (
        detail && (
          <>
            {detail.summary && <p className="whitespace-pre-wrap">{detail.summary}</p>}
            {detail.style && (
              <p>
                <span className="text-muted">{t('sequences.style')}: </span>
                {detail.style}
              </p>
            )}
            {Array.isArray(detail.scenes) && detail.scenes.length > 0 && (
              <ol className="list-decimal space-y-1 ps-4">
                {detail.scenes.map((scene) => (
                  <li key={scene.sceneNumber}>
                    <span className="font-medium">{scene.heading}</span>
                    {scene.summary && <span className="text-muted"> — {scene.summary}</span>}
                  </li>
                ))}
              </ol>
            )}
          </>
        )
      )}
    </div>
  );
}
