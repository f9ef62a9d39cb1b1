import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { decisionError, deleteError } from './errors.ts';
import ar from './i18n/ar.json';

const network = new ApiError(0, MESSAGES.verification.network, 'NETWORK');
const silent = new ApiError(500, MESSAGES.generic.internal);
const told = new ApiError(409, MESSAGES.admin.notPending);

describe('admin error messages (spec 8)', () => {
  beforeAll(async () => {
    await i18next.init({ lng: 'en', resources: { ar: { translation: ar } }, interpolation: { escapeValue: false } });
  });

  it('shows the server error when there is one', () => {
    expect(decisionError(told, 'user', 'approve')).toBe(MESSAGES.admin.notPending);
    expect(deleteError(new ApiError(400, MESSAGES.admin.lastAdmin))).toBe(MESSAGES.admin.lastAdmin);
  });

  it('falls back to the spec messages when the server said nothing', () => {
    expect(decisionError(silent, 'user', 'reject')).toBe('Failed to approve/reject user/brand');
    expect(decisionError(silent, 'brand', 'approve')).toBe('Failed to approve/reject user/brand');
    expect(deleteError(silent)).toBe('Failed to delete user');
    expect(deleteError(network)).toBe('Failed to delete user');
  });

  it('names the action when the request never got an answer', () => {
    expect(decisionError(network, 'user', 'approve')).toBe('Failed to approve user. Please try again.');
    expect(decisionError(network, 'user', 'reject')).toBe('Failed to reject user. Please try again.');
    expect(decisionError(network, 'brand', 'approve')).toBe('Network error occurred while approving brand');
    expect(decisionError(network, 'brand', 'reject')).toBe('Network error occurred while rejecting brand');
  });

  it('translates them in Arabic', async () => {
    await i18next.changeLanguage('ar');
    expect(decisionError(network, 'user', 'approve')).toBe('تعذّر اعتماد المستخدم. يرجى المحاولة مرة أخرى.');
    expect(deleteError(silent)).toBe('تعذّر حذف المستخدم');
    await i18next.changeLanguage('en');
  });
});
