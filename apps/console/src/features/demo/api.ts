import { demoDeleted, demoStatus } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const demoKeys = {
  all: ['demo'] as const,
  status: () => [...demoKeys.all, 'status'] as const,
};

/** What the demo of the first start holds in this account (empty once deleted). */
export const demoQueryOptions = () =>
  queryOptions({
    queryKey: demoKeys.status(),
    queryFn: ({ signal }) => api.get('/entities/demo', demoStatus, { signal }).then((r) => r.items),
  });

/** Deletes the demo data in one action; every cached list may have held some of it, so all are refetched. */
export function useDeleteDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/entities/demo', demoDeleted),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
