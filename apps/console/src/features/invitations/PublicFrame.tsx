import { Anchor, Box, Center, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the pages people reach without a session: join, reset and forgotten password. */
export function PublicFrame({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md" component="main">
      <title>{`${title} · SVC console`}</title>
      <Box w="100%" maw={440}>
        <Title order={1} size="h2" ta="center" mb={4}>
          {title}
        </Title>
        <Text c="dimmed" ta="center" mb="lg">
          {intro}
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          {children}
        </Paper>
        <Text ta="center" mt="md" size="sm">
          <Anchor component={Link} to="/login">
            Back to sign-in
          </Anchor>
        </Text>
      </Box>
    </Center>
  );
}
