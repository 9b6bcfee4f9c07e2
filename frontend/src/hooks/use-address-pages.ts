import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

const SEARCH_DEBOUNCE_MS = 300;

/** A list's filter in the address: a search text, the page's token and its 1-based number. */
export type AddressPageParams = { q: string; after: string; page: number };

type AddressCodec<P extends AddressPageParams> = {
  /** The filter the address holds (module functions, so the identity stays the same). */
  from: (search: URLSearchParams) => P;
  to: (params: P) => URLSearchParams;
  /** What makes two filters differ, paging aside. */
  filterKey: (params: P) => string;
};

/** A paged list whose filter and page live in the address: the search box (debounced), filter
 * changes (back to page 1) and Next/Previous with the tokens of the pages before this one. */
export function useAddressPages<P extends AddressPageParams>({ from, to, filterKey: keyOf }: AddressCodec<P>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = from(searchParams);
  const [typed, setTyped] = useState(params.q);
  // The address changed by other means (a link, Back): the box shows its text.
  const [addressQ, setAddressQ] = useState(params.q);
  if (addressQ !== params.q) {
    setAddressQ(params.q);
    if (params.q !== typed.trim()) setTyped(params.q);
  }
  const query = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (change: Partial<P>, keepPage = false) => {
      setSearchParams(
        () => {
          // The address as it is now, so two quick changes do not undo each other.
          const next = { ...from(new URLSearchParams(window.location.search)), ...change };
          return to(keepPage ? next : { ...next, after: '', page: 1 });
        },
        { replace: !keepPage },
      );
    },
    [setSearchParams, from, to],
  );

  useEffect(() => {
    if (query !== params.q.trim()) update({ q: query } as Partial<P>);
  }, [query, params.q, update]);

  // Tokens of the pages before this one, while the filter stays the same.
  const filterKey = keyOf(params);
  const [earlier, setEarlier] = useState<{ key: string; tokens: string[] }>({ key: filterKey, tokens: [] });
  if (earlier.key !== filterKey) setEarlier({ key: filterKey, tokens: [] });

  return {
    params,
    search: typed,
    setSearch: setTyped,
    /** A change of filter: back to page 1. */
    setFilter: (change: Partial<P>) => update(change),
    /** To the page after this one, whose token the list answered with. */
    next: (nextToken: string) => {
      if (!nextToken) return;
      setEarlier((e) => {
        const tokens = [...e.tokens];
        tokens[params.page - 1] = params.after;
        return { ...e, tokens };
      });
      update({ after: nextToken, page: params.page + 1 } as Partial<P>, true);
    },
    previous: () => {
      if (params.page <= 1) return;
      // Unknown after a reload on a later page: back to the first.
      const token = earlier.key === filterKey ? earlier.tokens[params.page - 2] : undefined;
      if (token === undefined) update({});
      else update({ after: token, page: params.page - 1 } as Partial<P>, true);
    },
  };
}
