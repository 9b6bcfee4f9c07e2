/** The client's own check before AcceptCustomerInvitation: both passwords typed the same. */
export function passwordsMismatch(password: string, confirm: string): boolean {
  return password !== confirm;
}
