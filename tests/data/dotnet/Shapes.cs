using System;
using System.Collections.Generic;

namespace Geometry.Shapes
{
    /// <summary>A shape that can be drawn on a canvas.</summary>
    public interface IDrawable
    {
        /// <summary>Draws the shape.</summary>
        /// <param name="canvas">Where to draw.</param>
        void Draw(Canvas canvas);
    }

    /// <summary>The kind of a line's ends.</summary>
    public enum LineCap { Butt, Round, Square }

    /// <summary>A surface shapes are drawn on.</summary>
    public class Canvas
    {
        private readonly List<Shape> shapes = new List<Shape>();

        /// <summary>Creates a canvas of the given size.</summary>
        /// <param name="width">Width in pixels.</param>
        /// <param name="height">Height in pixels.</param>
        public Canvas(int width, int height) { Width = width; Height = height; }

        /// <summary>The width in pixels.</summary>
        public int Width { get; private set; }

        /// <summary>The height in pixels.</summary>
        public int Height { get; private set; }

        /// <summary>Raised after a shape was added.</summary>
        public event EventHandler ShapeAdded;

        /// <summary>Adds a shape to the canvas.</summary>
        /// <param name="shape">The shape to add.</param>
        /// <exception cref="T:System.ArgumentNullException">When shape is null.</exception>
        public void Add(Shape shape)
        {
            if (shape == null)
                throw new ArgumentNullException("shape");
            shapes.Add(shape);
            if (ShapeAdded != null)
                ShapeAdded(this, EventArgs.Empty);
        }

        /// <summary>Adds a shape at a position.</summary>
        public void Add(Shape shape, int x, int y) { shape.MoveTo(x, y); Add(shape); }

        /// <summary>Finds the first shape of a type.</summary>
        public T Find<T>() where T : Shape
        {
            foreach (Shape s in shapes)
                if (s is T) return (T)s;
            return null;
        }

        internal void Clear() { shapes.Clear(); }
    }

    /// <summary>The base of every shape.</summary>
    public abstract class Shape : IDrawable
    {
        /// <summary>The X position.</summary>
        public int X;
        /// <summary>The Y position.</summary>
        public int Y;

        /// <summary>Moves the shape.</summary>
        /// <param name="x">New X.</param>
        /// <param name="y">New Y.</param>
        public void MoveTo(int x, int y) { X = x; Y = y; }

        /// <summary>Draws the shape.</summary>
        public abstract void Draw(Canvas canvas);

        /// <summary>How the shape describes itself.</summary>
        protected virtual string Describe() { return GetType().Name; }
    }

    /// <summary>A circle.</summary>
    public class Circle : Shape
    {
        /// <summary>Creates a circle.</summary>
        /// <param name="radius">The radius.</param>
        public Circle(double radius) { Radius = radius; }

        /// <summary>The radius.</summary>
        public double Radius { get; set; }

        /// <summary>Draws the circle.</summary>
        public override void Draw(Canvas canvas) { canvas.Add(new Circle(Radius), X, Y); }

        /// <summary>A circle scaled by a factor.</summary>
        public static Circle Scale(Circle circle, double factor) { return new Circle(circle.Radius * factor); }
    }

    internal class Hidden { public void Secret() { } }
}
