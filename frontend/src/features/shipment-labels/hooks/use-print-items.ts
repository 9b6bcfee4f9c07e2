import { useEffect, useState } from 'react';
import { loadPrintItem, type PrintItem } from '../api/shipments';

type State = { key: string; items: PrintItem[] };

/** Loads every id's shipment at once; `items` follow the ids' order, `loading` until all answered. */
export function usePrintItems(ids: readonly string[]): { loading: boolean; items: PrintItem[] } {
  const key = ids.join(',');
  const [state, setState] = useState<State>({ key: '', items: [] });

  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    Promise.all(key.split(',').map((id) => loadPrintItem(id, controller.signal))).then(
      (items) => {
        if (!controller.signal.aborted) setState({ key, items });
      },
      () => {
        // Aborted: the ids changed or the page closed; the next load answers.
      },
    );
    return () => controller.abort();
  }, [key]);

  const loading = key !== '' && state.key !== key;
  return { loading, items: loading ? [] : state.items };
}
