// The session token (localStorage `auth_token`) and the last known user, as a small reactive store.
import { create } from 'zustand';
import type { User } from '../../common/api/auth.ts';

const TOKEN_KEY = 'auth_token';
const USER_KEY = 'user';

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY) || sessionStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

function readUser(): User | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

interface SessionState {
  token: string | null;
  /** The user stored with the token (for the email on the verification page before /me answers). */
  storedUser: User | null;
}

export const useSession = create<SessionState>(() => ({ token: readToken(), storedUser: readUser() }));

export function getToken(): string | null {
  return useSession.getState().token;
}

export function saveSession(token: string, user: User) {
  try {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // Storage unavailable: the session lasts for this page only.
  }
  useSession.setState({ token, storedUser: user });
}

export function saveUser(user: User) {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // ignore
  }
  useSession.setState({ storedUser: user });
}

export function clearSession() {
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // ignore
  }
  useSession.setState({ token: null, storedUser: null });
}

// Keep tabs in step: logging out in one tab logs out the others.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY || event.key === null)
      useSession.setState({ token: readToken(), storedUser: readUser() });
  });
}
