// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const CAMPAIGNS_MESSAGES = {
  campaigns: {
    // Spec 5 and 8, verbatim.
    insufficientFunds: withParams(['need'], (need: string) => `Insufficient funds. Need $${need} more.`),
    loadFailed: 'Failed to load campaign details',
    fetchFailed: 'Failed to fetch campaign details',
    loadError: 'An error occurred while loading the campaign',
    noData: 'No campaign data available',
    createFailed: 'There was an issue creating your campaign. Please try again.',
    emptyMine: "You haven't created any campaigns yet",
    emptyPool: 'No open campaigns available right now',
    // Ours: the gaps the spec leaves.
    titleRequired: 'Please enter a campaign title',
    objectiveRequired: 'Please enter a campaign objective',
    budgetMin: withParams(['min'], (min: number) => `The budget must be at least €${min}`),
    budgetMax: withParams(['max'], (max: number) => `The budget can be at most €${max}`),
    budgetLabel: "The budget must be an amount in euros (e.g. 2500) or a range such as '$1K - $5K'",
    amountDecimals: 'Amounts can have at most 2 decimals',
    durationRange: withParams(
      ['min', 'max'],
      (min: number, max: number) => `The duration must be between ${min} and ${max} days`,
    ),
    ageRange: withParams(
      ['min', 'max'],
      (min: number, max: number) => `The audience age must be between ${min} and ${max}`,
    ),
    ageOrder: 'The minimum age cannot be above the maximum age',
    platformsRequired: 'Select at least one platform',
    contentTypesRequired: 'Select at least one content type',
    endBeforeStart: 'The end date cannot be before the start date',
    startInPast: 'The start date cannot be in the past',
    dateInvalid: 'Enter a date as YYYY-MM-DD',
    tooManyMaterials: withParams(['max'], (max: number) => `A campaign can have at most ${max} materials`),
    materialType: 'Only images and videos can be campaign materials',
    brandOnly: 'Only brand accounts can create and manage campaigns',
    poolStatusFilter: 'The pool lists open and running campaigns',
    invalidTransition: withParams(
      ['from', 'to'],
      (from: string, to: string) => `A ${from} campaign cannot become ${to}`,
    ),
    onlyDraftsEditable: 'Only draft campaigns can be edited',
    onlyDraftsDeletable: 'Only draft campaigns can be deleted',
    activeCollaborations: 'Complete the active collaborations before completing the campaign',
    planFailed: 'The campaign plan could not be built. Please try again.',
    deleted: 'Campaign deleted',
    // Applications and collaborations.
    applyCreatorOnly: 'Only approved creators can apply to campaigns',
    notOpen: 'This campaign is not accepting applications',
    alreadyApplied: 'You have already applied to this campaign',
    messageRequired: 'Please write a message to the brand',
    rateRequired: 'Enter your rate in euros',
    ratePositive: 'Your rate must be more than €0',
    rateMax: withParams(['max'], (max: number) => `Your rate can be at most €${max}`),
    applicationNotPending: 'This application has already been answered',
    campaignClosed: 'This campaign is completed',
    budgetNotCovered: withParams(
      ['available'],
      (available: string) => `The campaign budget left (€${available}) does not cover this rate`,
    ),
    collaborationNotActive: 'This collaboration is no longer active',
    applied: 'Your application has been sent',
    withdrawn: 'Your application has been withdrawn',
  },
} as const;
