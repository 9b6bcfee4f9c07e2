import { useAddressPages } from '@/hooks/use-address-pages';
import { STATUS_OPTIONS, valueOf } from '@/utils/shipment';
import { usePortalShipments } from '../api/portal';
import { isBackwardsRange, portalParamsFrom, portalParamsTo, type PortalListParams } from '../utils/list-params';

const PORTAL_PAGES = {
  from: portalParamsFrom,
  to: portalParamsTo,
  filterKey: (p: PortalListParams) => `${p.status}\n${p.q.trim()}\n${p.from}\n${p.to}`,
};

/** The portal list: pages of 20 of the customer's shipments, searched (debounced), filtered by
 * status and creation days; all of it and the page live in the address (a change of filter goes
 * back to page 1). */
export function usePortalList() {
  const pages = useAddressPages(PORTAL_PAGES);
  const { params } = pages;
  const backwards = isBackwardsRange(params);
  const list = usePortalShipments(
    {
      query: params.q.trim(),
      status: valueOf(STATUS_OPTIONS, params.status),
      from: params.from,
      to: params.to,
      pageToken: params.after,
    },
    !backwards,
  );
  const nextToken = list.data?.nextPageToken ?? '';

  return {
    params,
    list,
    backwards,
    search: pages.search,
    setSearch: pages.setSearch,
    setFilter: pages.setFilter,
    hasNext: !list.isFetching && nextToken !== '',
    next: () => pages.next(nextToken),
    previous: pages.previous,
  };
}
