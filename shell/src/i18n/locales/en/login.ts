/** Texts of the login area (en). */
export default {} as const;
