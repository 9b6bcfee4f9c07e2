import { Plane, Ship, Truck, Warehouse } from 'lucide-react';

/** The four core services, their icons and the Services page anchors. */
export const CORE_SERVICES = [
  {
    id: 'freight-mode-air-freight',
    title: 'Air Freight',
    Icon: Plane,
    text: 'Time-critical cargo on scheduled and charter flights, door to door in 1–3 business days.',
  },
  {
    id: 'freight-mode-sea-freight',
    title: 'Sea Freight',
    Icon: Ship,
    text: 'Full and shared container loads on the major trade lanes, the economical choice for volume.',
  },
  {
    id: 'freight-mode-land-freight',
    title: 'Ground Transport',
    Icon: Truck,
    text: 'Full and part truckloads with a dense regional network and delivery in 2–5 business days.',
  },
  {
    id: 'freight-mode-warehousing',
    title: 'Warehousing',
    Icon: Warehouse,
    text: 'Secure storage, pick and pack, and inventory management close to your customers.',
  },
] as const;
