import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's own script, to run inside the page. */
const AXE_SOURCE = axe.source;

/** The WCAG 2.1 and 2.2 A and AA rules axe-core checks. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * WCAG 2.5.8's 'equivalent' exception, for the timeline's trim handles only: they take 24 px of their clip, but a
 * clip under 72 px wide (3.6 s at the default zoom, a 1 s clip is 10 px at the smallest) has no room for two 24 px
 * handles and its body; there they are a third of the clip each (`data-trim-room="narrow"`). The same trim is made
 * with full-size targets in the 'Cut of a clip' fields below the track (ClipCutFields.tsx, checked by the canvas
 * journey), and by the arrow keys on a focused handle. Every other target-size finding, wide clips' handles
 * included, fails a journey.
 */
const NARROW_TRIM_HANDLE = /^<span data-testid="timeline-handle-[^"]*" data-trim-room="narrow"/;

function withoutKnownGaps(v: Record<string, unknown>): Array<Record<string, unknown>> {
  if (v.id !== 'target-size') return [v];
  const nodes = (v.nodes as Array<{ html: string }>).filter((n) => !NARROW_TRIM_HANDLE.test(n.html));
  return nodes.length > 0 ? [{ ...v, nodes }] : [];
}

/**
 * Waits (up to 5 s) until no toast is fading in or out: axe measures a toast's contrast with its opacity, and
 * halfway through its animation a readable toast reads as 2:1. A toast at rest is checked like everything else.
 */
async function toastsAtRest(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')]
          .filter((toast) => toast.dataset.visible !== 'false')
          .every((toast) => toast.dataset.removed !== 'true' && getComputedStyle(toast).opacity === '1'),
      undefined,
      { timeout: 5_000, polling: 100 },
    )
    .catch(() => undefined);
}

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending nodes (at most five) with axe's summary of the first. */
  nodes: string[];
  summary: string;
}

/**
 * The critical and serious WCAG 2.2 A/AA violations axe-core finds on the page as it is now. axe runs in
 * the page through the DevTools protocol, so the studio's CSP (no inline scripts) does not stop it.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await toastsAtRest(page);
  await page.evaluate(AXE_SOURCE);
  const run = (runOnly: { type: 'tag' | 'rule'; values: string[] }) =>
    page.evaluate(
      (only) =>
        (
          window as unknown as {
            axe: { run(ctx: Document, o: object): Promise<{ violations: Array<Record<string, unknown>> }> };
          }
        ).axe.run(document, {
          runOnly: only,
          // Off by default in axe-core: targets of at least 24×24 px, or spaced as if they were (2.5.8).
          rules: { 'target-size': { enabled: true } },
          resultTypes: ['violations'],
        }),
      runOnly,
    );
  const wcag = await run({ type: 'tag', values: WCAG_22_AA });
  // One <main> per page (a best-practice rule of axe, 'moderate'): overlays must not add a second one.
  const landmarks = await run({ type: 'rule', values: ['landmark-no-duplicate-main'] });
  const violations = [
    ...wcag.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').flatMap(withoutKnownGaps),
    ...landmarks.violations,
  ];
  return violations.map((v) => {
    const nodes = v.nodes as Array<{ target: string[]; failureSummary?: string }>;
    return {
      rule: String(v.id),
      impact: String(v.impact),
      help: String(v.help),
      nodes: nodes.slice(0, 5).map((n) => n.target.join(' ')),
      summary: [
        ...new Set(nodes.map((n) => String(n.failureSummary ?? '').replace(/^Fix any of the following:\s*/, ''))),
      ]
        .slice(0, 6)
        .join(' / ')
        .slice(0, 1200),
    };
  });
}
