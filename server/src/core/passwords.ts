import bcrypt from 'bcryptjs';

/** bcrypt cost; lowered by tests through BCRYPT_ROUNDS to keep suites fast. */
const rounds = (): number => Number(process.env.BCRYPT_ROUNDS ?? 10);

export const hashPassword = (plain: string): Promise<string> => bcrypt.hash(plain, rounds());
export const verifyPassword = (plain: string, hash: string): Promise<boolean> => bcrypt.compare(plain, hash);
