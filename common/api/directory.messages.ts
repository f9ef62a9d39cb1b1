// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
export const DIRECTORY_MESSAGES = {
  directory: {
    noCreators: 'No creators found matching your criteria',
    noVerifiedCreators: 'No verified creators found matching your search criteria',
    noBrandsYet: 'No brands to display yet',
    noBrands: 'No brands found matching your criteria',
    profileNotFound: 'Profile not found',
    approvalRequired: 'This area opens once an admin approves your creator account.',
  },
} as const;
