import { Center, Loader } from '@mantine/core';

export interface CenteredLoaderProps {
  /** Read by screen readers while the content loads. */
  label: string;
  height?: number | string;
}

export function CenteredLoader({ label, height = 200 }: CenteredLoaderProps) {
  return (
    <Center h={height} role="status" aria-label={label}>
      <Loader size="sm" />
    </Center>
  );
}
