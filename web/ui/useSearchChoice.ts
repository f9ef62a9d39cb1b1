// A sub-view (tab or filter) kept in the page's URL as a search parameter, so a reload, a shared link or Back
// lands on it again. The default choice leaves the parameter out; an unknown value reads as the default.
import { useSearchParams } from 'react-router';

export function useSearchChoice<T extends string>(
  name: string,
  choices: readonly T[],
  fallback: T,
): [T, (next: T) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(name);
  const value = choices.includes(raw as T) ? (raw as T) : fallback;
  const choose = (next: T) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === fallback) updated.delete(name);
        else updated.set(name, next);
        return updated;
      },
      { replace: true },
    );
  return [value, choose];
}
