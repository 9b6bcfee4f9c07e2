import { Quote } from 'lucide-react';
import type { Testimonial } from '@/config/company';
import { StarRating } from './StarRating';

/** A client's quote, name, role and rating. */
export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  const { name, role, quote, rating } = testimonial;
  return (
    <figure className="card testimonial-card hover-lift">
      <Quote className="testimonial-quote-icon" aria-hidden="true" size={28} />
      <StarRating rating={rating} />
      <blockquote>
        <p>{quote}</p>
      </blockquote>
      <figcaption>
        <span className="testimonial-name">{name}</span>
        <span className="testimonial-role">{role}</span>
      </figcaption>
    </figure>
  );
}
