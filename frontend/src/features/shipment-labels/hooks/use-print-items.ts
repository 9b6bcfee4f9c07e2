import { useQueries } from '@tanstack/react-query';
import { loadPrintItem, type PrintItem } from '../api/shipments';

/** Loads every id's shipment at once; `items` follow the ids' order, `loading` until all answered. */
export function usePrintItems(ids: readonly string[]): { loading: boolean; items: PrintItem[] } {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['print-item', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => loadPrintItem(id, signal),
    })),
    combine: (results) => {
      const loading = results.some((result) => result.data === undefined);
      return { loading, items: loading ? [] : results.map((result) => result.data!) };
    },
  });
}
