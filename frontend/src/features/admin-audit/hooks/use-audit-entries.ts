import { useInfiniteQuery } from '@connectrpc/connect-query';
import { AuditService } from '@/gen/logistics/v1/audit_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { auditEntriesRequest } from '../api/audit';
import type { AuditFilters } from '../utils/filters';

const LOAD_FAILED = 'Failed to load the audit log';

/** The entries matching `filters`, newest first: the first page, then more on request. */
export function useAuditEntries(filters: AuditFilters) {
  const query = useInfiniteQuery(
    AuditService.method.listAuditEntries,
    { ...auditEntriesRequest(filters), pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined },
  );
  const { refetch, fetchNextPage } = query;
  const loading = query.isFetching;
  return {
    entries: query.data?.pages.flatMap((page) => page.entries) ?? [],
    loading,
    // A new load hides the last failure until it fails too.
    error: query.error && !loading ? serverMessage(query.error, LOAD_FAILED) : null,
    hasMore: query.hasNextPage,
    loadMore: () => void fetchNextPage(),
    reload: () => void refetch(),
  };
}
