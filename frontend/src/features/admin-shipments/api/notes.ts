// Staff's internal notes on a shipment (ShipmentNoteService), through connect-query: a new note
// loads the notes shown again.
import { createConnectQueryKey, useInfiniteQuery, useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { ShipmentNoteService } from '@/gen/logistics/v1/shipment_note_service_pb';

const PAGE_SIZE = 20;

/** A shipment's notes, newest first (shipments.read): the first page, then more on request. */
export function useShipmentNotes(shipmentId: string) {
  const query = useInfiniteQuery(
    ShipmentNoteService.method.listShipmentNotes,
    { shipmentId, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined },
  );
  const { fetchNextPage } = query;
  return {
    notes: query.data?.pages.flatMap((page) => page.notes),
    loading: query.isFetching,
    loadingMore: query.isFetchingNextPage,
    error: query.error,
    hasMore: query.hasNextPage,
    loadMore: () => void fetchNextPage(),
  };
}

/** Adds a note (shipments.track); on success every list of notes loads again. */
export function useCreateShipmentNote() {
  const queryClient = useQueryClient();
  return useMutation(ShipmentNoteService.method.createShipmentNote, {
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: ShipmentNoteService, cardinality: undefined }),
      }),
  }).mutateAsync;
}
