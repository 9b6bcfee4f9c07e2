import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { exceptionParamsFrom, exceptionParamsTo, type ExceptionParams } from '../utils/exceptions';

/** The queue's filter, kept in the address (`?kind=late`), so the dashboard links to a kind and a
 * view survives a reload. */
export function useExceptionParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = exceptionParamsFrom(searchParams);
  const update = useCallback(
    (change: Partial<ExceptionParams>) =>
      setSearchParams(
        // The address as it is now, so two quick changes do not undo each other.
        () => exceptionParamsTo({ ...exceptionParamsFrom(new URLSearchParams(window.location.search)), ...change }),
        { replace: true },
      ),
    [setSearchParams],
  );
  return { params, update };
}
