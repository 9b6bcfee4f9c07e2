/** The shortest password the auth service accepts (its NewPassword rule). */
export const MIN_PASSWORD_LENGTH = 12;
