import { NavLink } from '@mantine/core';
import type { ReactNode } from 'react';
import { NavLink as RouterNavLink, useMatch } from 'react-router';

export interface NavItemProps {
  to: string;
  label: string;
  icon: ReactNode;
  onNavigate?: () => void;
}

/** A navbar entry: Mantine's look, react-router's link (client navigation and aria-current). */
export function NavItem({ to, label, icon, onNavigate }: NavItemProps) {
  const active = useMatch({ path: to, end: false }) !== null;
  return (
    <NavLink component={RouterNavLink} to={to} label={label} leftSection={icon} active={active} onClick={onNavigate} />
  );
}
