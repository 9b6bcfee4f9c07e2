import { useQueries } from '@tanstack/react-query';
import type { PrintArea } from '@/config/routes';
import { loadPrintItem, type PrintItem } from '../api/shipments';

/** Loads every id's shipment at once; `items` follow the ids' order, `loading` until all answered. */
export function usePrintItems(area: PrintArea, ids: readonly string[]): { loading: boolean; items: PrintItem[] } {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['print-item', area, id],
      queryFn: ({ signal }: { signal: AbortSignal }) => loadPrintItem(area, id, signal),
    })),
    combine: (results) => {
      const loading = results.some((result) => result.data === undefined);
      return { loading, items: loading ? [] : results.map((result) => result.data!) };
    },
  });
}
