/** Texts of the configuracoes area (pt-BR). */
export default {} as const;
