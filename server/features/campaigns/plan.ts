import { z } from 'zod';
import { CAMPAIGN_LIMITS, type CampaignPlatform } from '../../../common/api/campaigns.constants.ts';
import type { CampaignPlan, campaignPlanBody } from '../../../common/api/campaigns.ts';
import { centsToEuros, eurosToCents, formatAmount } from '../../../common/api/money.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { audienceGeneration, durationLabel, estimateReach, splitBudget } from '../../../common/rules/campaigns.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';

// POST /api/campaigns/plan: the text engine writes the plan (title, phases, a posting schedule per
// platform, KPI targets) as structured output, validated here; the budget split and the reach
// estimate are computed from the budget and the schedule with documented assumptions
// (common/rules/campaigns.ts), so the figures are the same whichever engine wrote the words.

type PlanInput = z.output<typeof campaignPlanBody>;

/** What the engine must answer (also sent to it as the JSON schema of the structured output). */
const enginePlan = z.object({
  title: z.string().trim().min(1),
  phases: z
    .array(
      z.object({
        phase: z.string().min(1),
        startDay: z.number().int().min(1),
        endDay: z.number().int(),
        focus: z.string(),
      }),
    )
    .default([]),
  schedule: z
    .array(
      z.object({
        platform: z.string(),
        posts: z.number().int().min(1),
        bestTime: z.string().default(''),
        items: z
          .array(
            z.object({
              day: z.number().int().min(1),
              format: z.string(),
              contentType: z.string(),
              idea: z.string(),
            }),
          )
          .default([]),
      }),
    )
    .min(1),
  kpis: z.array(z.object({ name: z.string(), target: z.string() })).default([]),
});

const PLATFORM_NAMES: Record<CampaignPlatform, string> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  facebook: 'Facebook',
  twitter: 'X (Twitter)',
};

const REACH_KPIS = new Set(['reach', 'impressions', 'video_views']);

function planFailed(cause: string): AppError {
  return new AppError(502, 'campaign_plan_failed', MESSAGES.campaigns.planFailed, { cause });
}

export async function writeCampaignPlan(ctx: AppContext, input: PlanInput): Promise<CampaignPlan> {
  ctx.engines.checkPrompt([input.name, input.objective, input.targetAudience.description].join('\n'));
  const generation = audienceGeneration(input.targetAudience.ageMin, input.targetAudience.ageMax);
  const budgetCents = eurosToCents(input.budget);
  const { engine } = ctx.engines.text();
  const result = await engine.complete({
    purpose: 'campaign-plan',
    system:
      'You are a social media campaign planner. Write a campaign plan: a short title, phases over the duration, ' +
      'a posting schedule for each requested platform (number of posts, best time, items with day, format, ' +
      'content type and idea) and a target for each KPI. Answer with JSON only.',
    prompt: input.objective,
    jsonSchema: {
      name: 'campaign_plan',
      schema: z.toJSONSchema(enginePlan, { io: 'input' }) as Record<string, unknown>,
    },
    context: {
      name: input.name || undefined,
      objective: input.objective,
      targetAudience: `${generation} (ages ${input.targetAudience.ageMin}-${input.targetAudience.ageMax})${
        input.targetAudience.description ? `: ${input.targetAudience.description}` : ''
      }`,
      budget: `€${formatAmount(budgetCents)}`,
      duration: `${input.duration} days`,
      platforms: input.platforms,
      contentTypes: input.contentTypes,
      kpis: input.kpis,
    },
  });
  let raw: unknown = result.json;
  if (raw === undefined) {
    try {
      raw = JSON.parse(result.text);
    } catch {
      throw planFailed('the engine did not answer with JSON');
    }
  }
  const parsed = enginePlan.safeParse(raw);
  if (!parsed.success) throw planFailed(parsed.error.issues[0]?.message ?? 'invalid plan');
  const written = parsed.data;

  const schedule = input.platforms.map((platform) => {
    const entry = written.schedule.find((s) => s.platform.toLowerCase() === platform);
    if (!entry) throw planFailed(`no schedule for ${platform}`);
    return {
      platform,
      posts: entry.posts,
      bestTime: entry.bestTime,
      items: entry.items.filter((i) => i.day <= input.duration),
    };
  });
  const split = splitBudget(budgetCents, schedule);
  const reach = estimateReach(split);
  const singleType = input.contentTypes.length === 1 ? input.contentTypes[0] : undefined;
  const kpiTargets = input.kpis.map((name) => {
    if (REACH_KPIS.has(name)) return { name, target: reach.total.toLocaleString('en-US') };
    const target = written.kpis.find((k) => k.name.toLowerCase() === name.toLowerCase())?.target;
    return { name, target: target ?? 'baseline +20%' };
  });
  const title = (input.name || written.title).slice(0, CAMPAIGN_LIMITS.titleLength);
  return {
    title,
    objective: input.objective,
    audience: {
      ageMin: input.targetAudience.ageMin,
      ageMax: input.targetAudience.ageMax,
      description: input.targetAudience.description,
      generation,
    },
    budget: centsToEuros(budgetCents),
    budgetCents,
    duration: durationLabel(input.duration),
    durationDays: input.duration,
    platforms: input.platforms,
    contentTypes: input.contentTypes,
    phases: written.phases
      .filter((p) => p.startDay <= input.duration)
      .map((p) => ({ ...p, endDay: Math.min(input.duration, Math.max(p.startDay, p.endDay)) })),
    schedule,
    deliverables: schedule.map((s) => ({
      type: `${PLATFORM_NAMES[s.platform]} ${singleType ?? 'post'}${s.posts === 1 ? '' : 's'}`,
      quantity: s.posts,
      platform: s.platform,
      ...(singleType ? { contentType: singleType } : {}),
    })),
    budgetSplit: split.map((s) => ({ ...s, amount: centsToEuros(s.amountCents) })),
    kpis: kpiTargets,
    materialsCount: schedule.reduce((n, s) => n + s.posts, 0),
    estimatedReach: reach.total,
    reachBasis: {
      perPlatform: reach.perPlatform.map((p) => ({
        platform: p.platform,
        amount: centsToEuros(p.amountCents),
        cpmEuros: p.cpmEuros,
        views: p.views,
      })),
      explanation: reach.basis,
    },
    engine: engine.name,
  };
}
