"""geoopt: Riemannian manifolds (Poincare ball, sphere, Stiefel), their parameters and optimizers."""
import torch

from . import case


@case("poincare_ball_ops", grad=True)
def _():
    import geoopt

    ball = geoopt.PoincareBall(c=1.0, learnable=True)

    def f(x, y):
        x, y = ball.expmap0(x), ball.expmap0(y)
        return ball.dist(x, y), ball.mobius_add(x, y), ball.logmap0(ball.mobius_matvec(torch.eye(4), x))

    return f, (torch.randn(5, 4) * 0.1, torch.randn(5, 4) * 0.1), {}


@case("stereographic_hyperplanes")
def _():
    import geoopt
    from geoopt.layers.stereographic import Distance2StereographicHyperplanes

    layer = Distance2StereographicHyperplanes(4, 3, ball=geoopt.PoincareBall())
    return layer, (torch.randn(5, 4) * 0.1,), {}


@case("sphere_projx_egrad")
def _():
    import geoopt

    sphere = geoopt.Sphere()

    def f(x, u):
        x = sphere.projx(x)
        return sphere.retr(x, sphere.egrad2rgrad(x, u)), sphere.dist(x, -x)

    return f, (torch.randn(5, 4), torch.randn(5, 4)), {}


@case("stiefel_retr_transp")
def _():
    import geoopt

    m = geoopt.CanonicalStiefel()

    def f(x, u):
        x = m.projx(x)
        y, v = m.retr_transp(x, m.proju(x, u), u)
        return y, v

    return f, (torch.randn(6, 3), torch.randn(6, 3)), {}


def _opt(name, manifold, **kw):
    import geoopt

    p = geoopt.ManifoldParameter(manifold.random(4, 3), manifold=manifold)
    p.grad = torch.randn(4, 3)
    return getattr(geoopt.optim, name)([p], **kw).step, (), {}


@case("riemannian_adam_step")
def _():
    import geoopt

    return _opt("RiemannianAdam", geoopt.Stiefel(), lr=1e-2, stabilize=1)


@case("riemannian_sgd_step")
def _():
    import geoopt

    return _opt("RiemannianSGD", geoopt.Sphere(), lr=1e-2, momentum=0.9, nesterov=True, dampening=0)


@case("lorentz_ops")
def _():
    import geoopt

    lor = geoopt.Lorentz()

    def f(u):
        x = lor.expmap0(u)
        return lor.dist0(x), lor.logmap0(x)

    u = torch.cat([torch.zeros(5, 1), torch.randn(5, 3) * 0.1], dim=1)
    return f, (u,), {}
