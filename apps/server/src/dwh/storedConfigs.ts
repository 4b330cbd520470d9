import { filterConfigs, integrationCreate } from '@svc/contracts';
import type { z } from 'zod';
import { parseStored } from '../platform/storedJson';

/**
 * An integration's settings as `dwh_integrations.config_json` keeps them: the parts of its create body that
 * describe the sync, checked (tableConfigs.ts) before they are stored, with the filters always present.
 */
const configs = integrationCreate
  .pick({ basic_configs: true, advanced_configs: true, output_config: true })
  .extend({ filter_configs: filterConfigs });
export type Configs = z.infer<typeof configs>;

export const readConfigs = (text: string): Configs => parseStored(configs, text, 'dwh_integrations.config_json');
