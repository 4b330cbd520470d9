import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, RootOperationNode } from 'kysely';
import type { OpenedStorage } from '../platform/storage';

/**
 * The storage with a Kysely plugin that tells `onQuery` of each statement the app compiles and runs on it
 * (inside transactions too), with its SQL text (the text of a raw `sql` statement; the kind of a builder's).
 * The real database runs every statement as before.
 */
export function watchQueries(storage: OpenedStorage, onQuery: (text: string) => void): OpenedStorage {
  const plugin: KyselyPlugin = {
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      onQuery(node.kind === 'RawNode' ? node.sqlFragments.join('?').replace(/\s+/g, ' ').trim() : node.kind);
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs) => result,
  };
  return { ...storage, db: storage.db.withPlugin(plugin) } as OpenedStorage;
}
