import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BankAccountsChangedReply,
  BankAccountsReply,
  CreateBankAccountBody,
  CreateBankAccountReply,
} from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { bankAccounts } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
/** Advanced between inserts so 'oldest' is well defined. */
const clock = new ManualClock(new Date());
let creator: TestUser;
let brand: TestUser;

const DE = 'DE89370400440532013000';
const GB = 'GB82WEST12345698765432';
const FR = 'FR1420041010050500013M02606';

beforeAll(async () => {
  t = await createTestApp({ clock });
  creator = await createTestUser(t.ctx.db, { role: 'creator' });
  brand = await createTestUser(t.ctx.db, { role: 'brand' });
});
afterAll(async () => {
  await t?.close();
});

const base = (role: 'creators' | 'brands') => `/api/${role}/bank-accounts`;
const add = (role: 'creators' | 'brands', token: string, body: Partial<CreateBankAccountBody>) => {
  clock.advance(1000);
  return t.app.inject({ method: 'POST', url: base(role), payload: body, headers: authHeader(token) });
};
const list = async (role: 'creators' | 'brands', token: string) =>
  ((await t.app.inject({ method: 'GET', url: base(role), headers: authHeader(token) })).json() as BankAccountsReply)
    .data;

describe('bank accounts', () => {
  it('checks the session and the role', async () => {
    expect((await t.app.inject({ method: 'GET', url: base('creators') })).statusCode).toBe(401);
    expect((await add('creators', brand.token, { accountHolderName: 'B', iban: DE })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: base('brands'), headers: authHeader(creator.token) })).statusCode,
    ).toBe(403);
  });

  it('validates holder, IBAN (country, length, check digits, max 34) and BIC', async () => {
    const cases: [Partial<CreateBankAccountBody>, string][] = [
      [{ iban: DE }, MESSAGES.account.holderRequired],
      [{ accountHolderName: '  ', iban: DE }, MESSAGES.account.holderRequired],
      [{ accountHolderName: 'Rita' }, MESSAGES.account.ibanRequired],
      [{ accountHolderName: 'Rita', iban: '   ' }, MESSAGES.account.ibanRequired],
      [{ accountHolderName: 'Rita', iban: 'DE89370400440532013001' }, MESSAGES.account.ibanChecksum],
      [{ accountHolderName: 'Rita', iban: 'DE8937040044053201300' }, MESSAGES.account.ibanLength('DE', 22)],
      [{ accountHolderName: 'Rita', iban: 'XX89370400440532013000' }, MESSAGES.account.ibanCountry],
      [{ accountHolderName: 'Rita', iban: `DE${'1'.repeat(33)}` }, MESSAGES.account.ibanTooLong(34)],
      [{ accountHolderName: 'Rita', iban: 'DE89-3704-0044' }, MESSAGES.account.ibanFormat],
      [{ accountHolderName: 'Rita', iban: DE, bicSwift: 'DEUT' }, MESSAGES.account.bicInvalid],
    ];
    for (const [body, error] of cases) {
      const res = await add('creators', creator.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ success: false, error });
    }
    expect(await list('creators', creator.token)).toEqual([]);
  });

  it('upper-cases and strips the IBAN, makes the first account primary and masks IBANs in replies', async () => {
    const res = await add('creators', creator.token, {
      accountHolderName: 'Rita Tester',
      iban: 'de89 3704 0044 0532 0130 00',
      bicSwift: 'cobadeffxxx',
      bankName: 'Commerzbank',
    });
    expect(res.statusCode).toBe(201);
    const created = (res.json() as CreateBankAccountReply).data;
    expect(created).toMatchObject({
      accountHolderName: 'Rita Tester',
      account_holder_name: 'Rita Tester',
      iban: 'DE** **** **** **** **30 00',
      ibanLast4: '3000',
      country: 'DE',
      bicSwift: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      is_primary: true,
      is_verified: false,
    });
    const [row] = await t.ctx.db.select().from(bankAccounts).where(eq(bankAccounts.id, created.id));
    expect(row.iban).toBe(DE);
    expect(JSON.stringify(await list('creators', creator.token))).not.toContain(DE);

    const dup = await add('creators', creator.token, { accountHolderName: 'Rita', iban: DE });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: MESSAGES.account.bankAccountExists });
  });

  it('moves primary on request and promotes the oldest remaining when the primary is deleted', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const first = (
      (await add('brands', user.token, { accountHolderName: 'Acme', iban: DE })).json() as CreateBankAccountReply
    ).data;
    const second = (
      (await add('brands', user.token, { accountHolderName: 'Acme', iban: GB })).json() as CreateBankAccountReply
    ).data;
    expect(second.is_primary).toBe(false);
    const third = (
      (
        await add('brands', user.token, { accountHolderName: 'Acme', iban: FR, is_primary: true })
      ).json() as CreateBankAccountReply
    ).data;
    expect(third.is_primary).toBe(true);
    let accounts = await list('brands', user.token);
    expect(accounts.map((a) => [a.id, a.is_primary])).toEqual([
      [third.id, true],
      [first.id, false],
      [second.id, false],
    ]);

    const patch = await t.app.inject({
      method: 'PATCH',
      url: `${base('brands')}?id=${second.id}`,
      payload: { is_primary: true },
      headers: authHeader(user.token),
    });
    expect(patch.statusCode).toBe(200);
    accounts = (patch.json() as BankAccountsChangedReply).data;
    expect(accounts.filter((a) => a.is_primary).map((a) => a.id)).toEqual([second.id]);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base('brands')}?id=${second.id}`,
      headers: authHeader(user.token),
    });
    expect(del.statusCode).toBe(200);
    accounts = (del.json() as BankAccountsChangedReply).data;
    expect(accounts.map((a) => [a.id, a.is_primary])).toEqual([
      [first.id, true],
      [third.id, false],
    ]);
  });

  it('keeps exactly one primary when the first two accounts are added at once', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'creator' });
    const [a, b] = await Promise.all([
      add('creators', user.token, { accountHolderName: 'A', iban: DE }),
      add('creators', user.token, { accountHolderName: 'B', iban: GB }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const accounts = await list('creators', user.token);
    expect(accounts).toHaveLength(2);
    expect(accounts.filter((x) => x.is_primary)).toHaveLength(1);
  });

  it("answers 404 for someone else's account, an unknown id or a malformed id", async () => {
    const owner = await createTestUser(t.ctx.db, { role: 'creator' });
    const mine = (
      (await add('creators', owner.token, { accountHolderName: 'Owner', iban: GB })).json() as CreateBankAccountReply
    ).data;
    for (const method of ['DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({
        method,
        url: `${base('creators')}?id=${mine.id}`,
        headers: authHeader(creator.token),
        ...(method === 'PATCH' ? { payload: { is_primary: true } } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: MESSAGES.account.bankAccountNotFound });
    }
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `${base('creators')}?id=00000000-0000-4000-8000-000000000000`,
      headers: authHeader(creator.token),
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject({
      method: 'DELETE',
      url: `${base('creators')}?id=nope`,
      headers: authHeader(creator.token),
    });
    expect(malformed.statusCode).toBe(400);
    expect(await list('creators', owner.token)).toHaveLength(1);
  });
});
