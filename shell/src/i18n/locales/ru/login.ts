/** Texts of the login area (ru). */
export default {} as const;
