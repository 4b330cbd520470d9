import { Alert, Button, FileButton, Group, List, Stack, Textarea, TextInput } from '@mantine/core';
import type { SsoSetting, SsoSettingInput } from '@svc/contracts';
import { IconFileCertificate, IconFileImport } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { type IdpMetadataFields, parseIdpMetadata } from './idpMetadata';

export interface SsoSettingFormProps {
  setting: SsoSetting | null;
  saving: boolean;
  error: string | null;
  onSave: (input: SsoSettingInput) => void;
}

const MAX_FILE_BYTES = 1024 * 1024;

async function readText(file: File): Promise<string> {
  if (file.size > MAX_FILE_BYTES)
    throw new Error('The file is larger than 1 MB; choose the certificate or metadata file.');
  return file.text();
}

interface ImportSummary extends IdpMetadataFields {
  file: string;
  certificates: number;
}

/** What a metadata import put into the form, for the administrator to check before saving. */
function ImportedNotice({ summary }: { summary: ImportSummary }) {
  return (
    <Alert color="teal" title={`Imported from ${summary.file}`}>
      <List size="sm">
        <List.Item>Sign-in endpoint: {summary.signInEndpoint ?? 'none in the metadata (kept as it was)'}</List.Item>
        <List.Item>Sign-out endpoint: {summary.signOutEndpoint ?? 'none (cleared)'}</List.Item>
        <List.Item>Entity ID: {summary.entityId ?? 'none (cleared)'}</List.Item>
        <List.Item>
          Signing certificates: {summary.certificates || 'none in the metadata (kept as they were)'}
        </List.Item>
        <List.Item>
          Identity provider name: derived from the sign-in endpoint when you save, unless you type one.
        </List.Item>
      </List>
      Nothing is saved until you press Save.
    </Alert>
  );
}

/** The identity provider's side: sign-in address and certificate, typed, uploaded or imported from metadata. */
export function SsoSettingForm({ setting, saving, error, onSave }: SsoSettingFormProps) {
  const [signIn, setSignIn] = useState(setting?.sign_in_endpoint ?? '');
  const [signOut, setSignOut] = useState(setting?.sign_out_endpoint ?? '');
  const [name, setName] = useState(setting?.identity_provider_name ?? '');
  const [entityId, setEntityId] = useState(setting?.idp_entity_id ?? '');
  const [cert, setCert] = useState(setting?.cert ?? '');
  const [fileError, setFileError] = useState<string | null>(null);
  const [imported, setImported] = useState<ImportSummary | null>(null);

  const importMetadata = async (file: File | null) => {
    if (!file) return;
    try {
      const fields = parseIdpMetadata(await readText(file));
      // The metadata describes the whole identity provider: what it leaves out is cleared, not kept from
      // before, and the name is derived anew from its sign-in endpoint unless the administrator types one.
      if (fields.signInEndpoint) setSignIn(fields.signInEndpoint);
      setSignOut(fields.signOutEndpoint ?? '');
      setEntityId(fields.entityId ?? '');
      if (fields.cert) setCert(fields.cert);
      setName('');
      setImported({ file: file.name, ...fields, certificates: fields.cert?.match(/BEGIN CERTIFICATE/g)?.length ?? 0 });
      setFileError(null);
    } catch (e) {
      setFileError(e instanceof Error ? e.message : 'The metadata could not be read.');
    }
  };
  const uploadCert = async (file: File | null) => {
    if (!file) return;
    try {
      setCert(await readText(file));
      setFileError(null);
    } catch (e) {
      setFileError(e instanceof Error ? e.message : 'The file could not be read.');
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setImported(null);
    onSave({
      sign_in_endpoint: signIn.trim(),
      sign_out_endpoint: signOut.trim() || null,
      cert,
      ...(name.trim() ? { identity_provider_name: name.trim() } : {}),
      entity_id: entityId.trim() || null,
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {imported && !fileError && <ImportedNotice summary={imported} />}
        {(error || fileError) && (
          <Alert color="red" title="Not saved">
            {fileError ?? error}
          </Alert>
        )}
        <Group>
          <FileButton onChange={importMetadata} accept=".xml,application/xml,text/xml">
            {(props) => (
              <Button variant="default" leftSection={<IconFileImport size={16} />} {...props}>
                Import IdP metadata XML
              </Button>
            )}
          </FileButton>
          <FileButton onChange={uploadCert} accept=".pem,.crt,.cer">
            {(props) => (
              <Button variant="default" leftSection={<IconFileCertificate size={16} />} {...props}>
                Upload PEM certificate
              </Button>
            )}
          </FileButton>
        </Group>
        <TextInput
          label="Sign-in endpoint"
          description="The identity provider's SAML single sign-on URL (https)."
          required
          value={signIn}
          onChange={(e) => setSignIn(e.currentTarget.value)}
        />
        <TextInput
          label="Sign-out endpoint"
          description="Optional."
          value={signOut}
          onChange={(e) => setSignOut(e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Identity provider name"
            description="Leave empty to derive it from the sign-in endpoint."
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label="Identity provider entity ID"
            description="Optional; when set, assertions must come from this issuer."
            value={entityId}
            onChange={(e) => setEntityId(e.currentTarget.value)}
          />
        </Group>
        <Textarea
          label="Signing certificate (PEM)"
          description="One or more certificates, each from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
          required
          autosize
          minRows={6}
          maxRows={14}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
          value={cert}
          onChange={(e) => setCert(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            {setting ? 'Save changes' : 'Save SSO setting'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
