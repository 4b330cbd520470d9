import { cheapPasswordHashesForTests } from '../platform/secrets';

// Every test file: real scrypt hashes, at a cost the suite can afford (see platform/secrets.ts).
cheapPasswordHashesForTests();
