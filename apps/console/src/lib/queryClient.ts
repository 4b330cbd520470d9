import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** A 4xx will not change by asking again; a lost connection or a 5xx may. */
function shouldRetry(failureCount: number, error: unknown) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

/** The console's one query client; sign-out and a new sign-in clear it so no account data outlives a session. */
export const queryClient = createQueryClient();
