import { Alert, Button, Group, Modal, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type CreateUserRequest, createUserRequest, PASSWORD_HINT } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { fieldOfError } from '../../lib/api';
import { useCreateUser } from './api';

export interface AddUserModalProps {
  opened: boolean;
  onClose: () => void;
}

type Values = Required<CreateUserRequest>;
type Field = keyof Values;
type Errors = Partial<Record<Field, string>>;

const EMPTY: Values = { name: '', email: '', password: '', administrator: false };
const FIELDS = new Set<string>(Object.keys(EMPTY));

/** The contracts schema's messages, first one per field: the same rules the server applies. */
function validate(values: Values): Errors {
  const result = createUserRequest.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELDS.has(field)) errors[field as Field] ??= issue.message;
  }
  return errors;
}

export function AddUserModal({ opened, onClose }: AddUserModalProps) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateUser();

  const set = <K extends Field>(field: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const close = () => {
    setValues(EMPTY);
    setErrors({});
    create.reset();
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(values, {
      onSuccess: (user) => {
        notifications.show({ color: 'teal', message: `${user.name} (${user.email}) can now sign in.` });
        close();
      },
      onError: (error) => {
        // A refusal about one field (say, an e-mail already in use) is shown at that field.
        const field = fieldOfError(error);
        if (field && FIELDS.has(field)) setErrors({ [field]: error.message });
      },
    });
  };
  const serverField = fieldOfError(create.error);
  const showAlert = create.error && !(serverField && FIELDS.has(serverField));

  return (
    <Modal opened={opened} onClose={close} title="Add user">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {showAlert && (
            <Alert color="red" title="The user was not added">
              {create.error?.message}
            </Alert>
          )}
          <TextInput
            label="Name"
            value={values.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="off"
            value={values.email}
            onChange={(e) => set('email', e.currentTarget.value)}
            error={errors.email}
          />
          <PasswordInput
            label="Password"
            description={`${PASSWORD_HINT} Tell it to the new user; they sign in with it.`}
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            error={errors.password}
          />
          <Switch
            label="Administrator"
            description="Administrators manage the users of the account."
            checked={values.administrator}
            onChange={(e) => set('administrator', e.currentTarget.checked)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
